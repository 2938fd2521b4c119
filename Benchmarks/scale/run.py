"""The scale runs of issue 13 against a release Hearth (BENCHMARKS.md, "Scale").

1. Listeners: --listeners Listen streams over --connections HTTP/2 connections (grpc.aio, one
   document target per stream). It measures the time until every stream is current, the server's
   RSS before and after (the memory per idle stream), then changes every listened document (batch
   commits of 500) and the time until every stream has received its document's change.
2. Documents: --documents documents written through the server with the official client's
   BulkWriter (its rate limit raised: the default ramp starts at 500 documents/s), plus 10,000 in a second collection; then, with the server still running, its RSS,
   the p50 of an equality query (limit 10) on the large collection against the same query on the
   small one (ratio in the same run), and the restart time: SIGTERM, start again, first answer.

Usage (a release build: swift build -c release --product hearth):
    .venv-interop/bin/python Benchmarks/scale/run.py --hearth .build/release/hearth
        [--listeners 10000] [--connections 10] [--documents 1000000] [--skip-listeners] [--skip-documents]
Exit status 0 when every listener got its change and every document was written, 1 otherwise.
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time

import grpc
from google.cloud.firestore_v1.bulk_writer import BulkWriterOptions
from google.cloud.firestore_v1.types import firestore as firestore_pb
from google.cloud.firestore_v1.types import write as write_pb

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from server_vs_google import Emulator, client_for  # noqa: E402

PROJECT = "demo-scale"
DATABASE = f"projects/{PROJECT}/databases/(default)"
OWNER = (("authorization", "Bearer owner"),)


def document_name(path):
    return f"{DATABASE}/documents/{path}"


async def listen_scale(server, listeners, connections):
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
        for start in range(0, listeners, 500):
            writes = [write_pb.Write(update={"name": document_name(f"listened/d{index}"),
                                             "fields": {"n": {"integer_value": value}}})
                      for index in range(start, min(listeners, start + 500))]
            await commit(firestore_pb.CommitRequest(database=DATABASE, writes=writes), metadata=OWNER)

    await commit_all(1)
    rss_before = server.rss_bytes()
    current, changed = asyncio.Event(), asyncio.Event()
    counts = {"current": 0, "changed": 0, "errors": 0}

    async def one(index):
        call = listen[index % connections](metadata=OWNER)
        target = firestore_pb.Target(target_id=1, documents={"documents": [document_name(f"listened/d{index}")]})
        await call.write(firestore_pb.ListenRequest(database=DATABASE, add_target=target))
        seen_current = False
        try:
            while True:
                response = await call.read()
                if response is grpc.aio.EOF:
                    raise RuntimeError("stream ended")
                kind = firestore_pb.ListenResponse.pb(response).WhichOneof("response_type")
                if kind == "target_change" and response.target_change.target_change_type == 3 and not seen_current:
                    seen_current = True
                    counts["current"] += 1
                    if counts["current"] == listeners:
                        current.set()
                elif kind == "document_change" and seen_current:
                    if response.document_change.document.fields["n"].integer_value == 2:
                        counts["changed"] += 1
                        if counts["changed"] == listeners:
                            changed.set()
                        break
        except Exception:  # noqa: BLE001 - counted: a stream that failed
            counts["errors"] += 1
            if counts["current"] + counts["errors"] >= listeners:
                current.set()
            if counts["changed"] + counts["errors"] >= listeners:
                changed.set()
        finally:
            call.cancel()

    started = time.perf_counter()
    tasks = [asyncio.create_task(one(index)) for index in range(listeners)]
    await asyncio.wait_for(current.wait(), timeout=600)
    all_current = time.perf_counter() - started
    await asyncio.sleep(2)
    rss_listening = server.rss_bytes()
    started = time.perf_counter()
    await commit_all(2)
    await asyncio.wait_for(changed.wait(), timeout=600)
    all_changed = time.perf_counter() - started
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    print(f"Listeners: {listeners} Listen streams over {connections} connections")
    print(f"  current: {counts['current']} in {all_current:.2f} s; errors: {counts['errors']}")
    print(f"  server RSS: {rss_before / 2**20:.1f} MB before, {rss_listening / 2**20:.1f} MB with every stream open: "
          f"{(rss_listening - rss_before) / listeners / 1024:.1f} KB per stream")
    print(f"  changed: {counts['changed']} of {listeners} received their document's change "
          f"{all_changed:.2f} s after the first of {listeners // 500 + (listeners % 500 > 0)} commits was sent")
    return counts["changed"] == listeners and counts["errors"] == 0


def query_p50(db, collection, samples):
    from google.cloud.firestore_v1.base_query import FieldFilter
    timings = []
    for sample in range(samples):
        started = time.perf_counter()
        list(db.collection(collection).where(filter=FieldFilter("group", "==", sample % 100)).limit(10).stream())
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def document_scale(server, documents, command):
    db = client_for(server, PROJECT)
    started = time.perf_counter()
    errors = []
    # The client's default ramp (500 ops/s, +50% every 5 minutes) is meant for production; an
    # emulator takes what it can.
    options = BulkWriterOptions(initial_ops_per_second=100_000, max_ops_per_second=100_000)
    writer = db.bulk_writer(options=options)
    writer.on_write_error(lambda error: errors.append(error) and False)
    for index in range(documents):
        writer.set(db.collection("users").document(f"u{index}"),
                   {"uid": f"u{index}", "email": f"u{index}@example.com", "group": index % 100, "age": index % 90})
    writer.close()
    seconds = time.perf_counter() - started
    small = db.bulk_writer(options=options)
    for index in range(10_000):
        small.set(db.collection("small").document(f"u{index}"), {"group": index % 100})
    small.close()
    count = db.collection("users").count().get()[0][0].value
    rss = server.rss_bytes()
    query_p50(db, "users", 20)
    query_p50(db, "small", 20)
    large, little = query_p50(db, "users", 200), query_p50(db, "small", 200)
    server.stop()
    restarted = Emulator("Hearth", command)
    recount = client_for(restarted, PROJECT).collection("users").count().get()[0][0].value
    print(f"Documents: {documents} written with the BulkWriter in {seconds:.1f} s "
          f"({documents / seconds:.0f} documents/s); {len(errors)} write errors; count {count}")
    print(f"  server RSS after the load: {rss / 2**20:.1f} MB")
    print(f"  equality query (limit 10) p50: {large * 1000:.2f} ms on {documents} documents, "
          f"{little * 1000:.2f} ms on 10,000: ratio {large / little:.2f}")
    print(f"  restart: {restarted.start_seconds:.2f} s from start to the first answer; count after it {recount}")
    restarted.stop()
    return not errors and count == documents and recount == documents


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hearth", required=True)
    parser.add_argument("--listeners", type=int, default=10_000)
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--documents", type=int, default=1_000_000)
    parser.add_argument("--skip-listeners", action="store_true")
    parser.add_argument("--skip-documents", action="store_true")
    arguments = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="hearth-scale-")
    ok = True
    if not arguments.skip_listeners:
        server = Emulator("Hearth", lambda: [arguments.hearth, "start", "--port", "{port}", "--project", PROJECT,
                                             "--data", os.path.join(scratch, "listeners")])
        try:
            ok = asyncio.run(listen_scale(server, arguments.listeners, arguments.connections)) and ok
        finally:
            server.stop()
    if not arguments.skip_documents:
        folder = os.path.join(scratch, "documents")

        def command():
            return [arguments.hearth, "start", "--port", "{port}", "--project", PROJECT, "--data", folder]
        server = Emulator("Hearth", command)
        try:
            ok = document_scale(server, arguments.documents, command) and ok
        finally:
            if server.process.poll() is None:
                server.stop()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
