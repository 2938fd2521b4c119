"""Server memory per idle Listen stream (issue 13, BENCHMARKS.md "Reliability (issue 13)").

Starts a release `hearth start` in its own process, writes one document per stream (batch
commits of 500), measures the server's RSS, then opens --streams Listen streams over
--connections HTTP/2 connections from this process (grpc.aio, the official clients' transport),
each with one document target, and waits until every stream is current. After --settle seconds
it measures the RSS again and prints the memory per idle stream, against the goal of 10 KB (so
that 10,000 streams take under 100 MB above the idle server). Unless --no-verify, it then changes
every document and checks that every stream is told of its change (the streams were alive).

With --google, Google's emulator (its launcher, `cloud_firestore_emulator`) is measured the same
way in the same run, after Hearth, and the two figures are printed as a ratio; where it is not
installed (or java is missing) that part is skipped, saying so.

Usage:
    .venv-interop/bin/python Benchmarks/listen_memory/run.py --hearth .build-bench-release/release/hearth
        [--streams 10000] [--connections 10] [--settle 2] [--no-verify] [--wrap "heaptrack -o /tmp/h"]
        [--google /usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator]
Exit status 0 when every stream became current (and, when verified, got its change), 1 otherwise.

With --wrap, the server is stopped by a SIGTERM to the wrapper's process group: a profiler that
writes its data in another process of that group (heaptrack's) must be started in a session of
its own by the wrapper, which then forwards SIGTERM to hearth alone and waits for the profiler.
"""

import argparse
import asyncio
import os
import shlex
import shutil
import sys
import tempfile
import time

import grpc
from google.cloud.firestore_v1.types import firestore as firestore_pb
from google.cloud.firestore_v1.types import write as write_pb

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from server_vs_google import Emulator  # noqa: E402

PROJECT = "demo-listen-memory"
DATABASE = f"projects/{PROJECT}/databases/(default)"
OWNER = (("authorization", "Bearer owner"),)
GOAL_BYTES_PER_STREAM = 10 * 1024
CURRENT = 3


def document_name(index):
    return f"{DATABASE}/documents/listened/d{index}"


async def measure(server, streams, connections, settle, verify, current_timeout=900):
    channels = [grpc.aio.insecure_channel(server.host, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(connections)]
    listen = [channel.stream_stream(
        "/google.firestore.v1.Firestore/Listen",
        request_serializer=firestore_pb.ListenRequest.serialize,
        response_deserializer=firestore_pb.ListenResponse.deserialize) for channel in channels]
    commit = channels[0].unary_unary(
        "/google.firestore.v1.Firestore/Commit",
        request_serializer=firestore_pb.CommitRequest.serialize,
        response_deserializer=firestore_pb.CommitResponse.deserialize)

    async def commit_all(value):
        for start in range(0, streams, 500):
            writes = [write_pb.Write(update={"name": document_name(index), "fields": {"n": {"integer_value": value}}})
                      for index in range(start, min(streams, start + 500))]
            await commit(firestore_pb.CommitRequest(database=DATABASE, writes=writes), metadata=OWNER)

    await commit_all(1)
    await asyncio.sleep(settle)
    rss_before = server.rss_bytes()
    counts = {"current": 0, "changed": 0, "errors": 0}
    all_current, all_changed, go_on = asyncio.Event(), asyncio.Event(), asyncio.Event()

    def settled():
        if counts["current"] + counts["errors"] >= streams:
            all_current.set()
        if counts["changed"] + counts["errors"] >= streams:
            all_changed.set()

    async def one(index):
        call = listen[index % connections](metadata=OWNER)
        target = firestore_pb.Target(target_id=1, documents={"documents": [document_name(index)]})
        await call.write(firestore_pb.ListenRequest(database=DATABASE, add_target=target))
        seen_current = False
        try:
            while True:
                response = await call.read()
                if response is grpc.aio.EOF:
                    raise RuntimeError("stream ended")
                kind = firestore_pb.ListenResponse.pb(response).WhichOneof("response_type")
                if kind == "target_change" and response.target_change.target_change_type == CURRENT and not seen_current:
                    seen_current = True
                    counts["current"] += 1
                    settled()
                    if not verify:
                        await go_on.wait()
                        break
                elif kind == "document_change" and seen_current:
                    if response.document_change.document.fields["n"].integer_value == 2:
                        counts["changed"] += 1
                        settled()
                        break
        except Exception:  # noqa: BLE001 - counted: a stream that failed
            counts["errors"] += 1
            settled()
        finally:
            call.cancel()

    async def close_streams(cancel):
        go_on.set()
        for task in tasks if cancel else []:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in channels:
            await channel.close()

    started = time.perf_counter()
    tasks = [asyncio.create_task(one(index)) for index in range(streams)]
    try:
        await asyncio.wait_for(all_current.wait(), timeout=current_timeout)
    except asyncio.TimeoutError:
        print(f"{server.label}: only {counts['current']} of {streams} streams current after {current_timeout} s "
              f"({counts['errors']} failed); RSS {server.rss_bytes() / 2**20:.1f} MiB ({rss_before / 2**20:.1f} idle)")
        await close_streams(cancel=True)
        return False, None
    current_seconds = time.perf_counter() - started
    await asyncio.sleep(settle)
    rss_listening = server.rss_bytes()
    changed_seconds = None
    if verify:
        started = time.perf_counter()
        await commit_all(2)
        await asyncio.wait_for(all_changed.wait(), timeout=900)
        changed_seconds = time.perf_counter() - started
    await close_streams(cancel=False)

    per_stream = (rss_listening - rss_before) / streams
    print(f"{server.label}: idle Listen streams: {streams} over {connections} connections, one document target each")
    print(f"  current: {counts['current']} in {current_seconds:.2f} s; errors: {counts['errors']}")
    print(f"  server RSS: {rss_before / 2**20:.1f} MiB idle, {rss_listening / 2**20:.1f} MiB with every stream open "
          f"(ratio {rss_listening / rss_before:.2f})")
    print(f"  per idle stream: {per_stream / 1024:.1f} KiB; goal {GOAL_BYTES_PER_STREAM / 1024:.0f} KiB: "
          f"ratio {per_stream / GOAL_BYTES_PER_STREAM:.2f} ({'met' if per_stream < GOAL_BYTES_PER_STREAM else 'missed'}); "
          f"10,000 streams would take {per_stream * 10_000 / 2**20:.0f} MiB above the idle server")
    if verify:
        print(f"  changed: {counts['changed']} of {streams} told of their document's change "
              f"{changed_seconds:.2f} s after the first commit was sent")
    ok = counts["current"] == streams and counts["errors"] == 0
    return ok and (not verify or counts["changed"] == streams), per_stream


def measure_server(label, command, arguments):
    """Starts one server, measures it, stops it: (every stream was served, bytes per stream)."""
    server = Emulator(label, lambda: command)
    try:
        return asyncio.run(measure(server, arguments.streams, arguments.connections, arguments.settle, arguments.verify))
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hearth", required=True)
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--settle", type=float, default=2.0, help="seconds to wait before each RSS reading")
    parser.add_argument("--no-verify", dest="verify", action="store_false",
                        help="close the streams without changing their documents (for a heap profile's peak)")
    parser.add_argument("--wrap", default="", help="a command to run hearth under, e.g. a heap profiler")
    parser.add_argument("--google", help="also measure Google's emulator (its launcher) in the same run")
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="hearth-listen-memory-")
    command = shlex.split(arguments.wrap) + [arguments.hearth, "start", "--port", "{port}", "--project", PROJECT,
                                             "--data", folder]
    try:
        ok, per_stream = measure_server("Hearth", command, arguments)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if arguments.google:
        if not os.access(arguments.google, os.X_OK) or shutil.which("java") is None:
            print(f"Google's emulator is not installed ({arguments.google}, with java): not compared")
        else:
            google_ok, google_per_stream = measure_server(
                "Google's emulator", [arguments.google, "--host", "127.0.0.1", "--port", "{port}"], arguments)
            if google_per_stream is None or per_stream is None:
                print("Per idle stream, Hearth against Google's emulator: no ratio (a server did not serve "
                      "every stream)")
            else:
                print(f"Per idle stream, Hearth against Google's emulator: {per_stream / 1024:.1f} KiB against "
                      f"{google_per_stream / 1024:.1f} KiB, ratio {per_stream / max(google_per_stream, 1):.2f}"
                      + ("" if google_ok else " (not every stream of Google's emulator got its change)"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
