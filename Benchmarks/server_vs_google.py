"""Hearth's server against Google's Firestore emulator, side by side in one run, both driven by
the official google-cloud-firestore Python client on this machine.

It measures, for each emulator (fresh processes; a fresh data folder for each Hearth):
  - start: from spawning the process to the first answered request (a REST document get, which
    answers 404), the median of --starts starts, the emulators taking turns, each alone;
  - RSS of the server's processes (Google's: the launcher script and its JVM) when idle after the
    first request, and after loading --documents documents (500 per batch commit);
  - p50 latency of a create, a get, an update, an equality query (10 matches among 1,000
    documents) and a count (of those 1,000 documents), --samples each after a warm-up, with
    both emulators running and taking turns in chunks of 25 samples;
  - listener latency: from just before a commit is sent to the on_snapshot callback that shows
    it ("unsupported" when the server answers the Listen stream UNIMPLEMENTED); its floor is
    measured against the replay server pushing each commit's document to the Listen stream at once;
  - 20 contending transactions incrementing one counter, each in its own thread and client with
    the client's retries (5 attempts): how many commit, the final value, the wall time.
Then it prints each figure side by side, the ratio, the goal and whether it is met.

Usage (see BENCHMARKS.md, "Server vs Google's emulator"; Benchmarks/run-server-vs-google builds
a release hearth and runs this with the interop venv):
    python Benchmarks/server_vs_google.py --hearth PATH [--google PATH] [--documents N] ...
Exit status 0 once measured, also when goals are missed; 1 if a measurement failed.
"""

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import grpc
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter
from google.cloud.firestore_v1.types import firestore as firestore_pb

PROJECT = "demo-bench"
GOOGLE_DEFAULT = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Emulator:
    """One emulator process (in its own process group), started on a free port."""

    def __init__(self, label, command):
        self.label = label
        self.port = free_port()
        self.host = f"127.0.0.1:{self.port}"
        arguments = [part.format(port=self.port) for part in command()]
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            arguments,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.start_seconds = self._wait_for_first_answer()

    def _wait_for_first_answer(self):
        url = f"http://{self.host}/v1/projects/{PROJECT}/databases/(default)/documents/start/probe"
        deadline = self.started + 120
        while time.perf_counter() < deadline:
            try:
                urllib.request.urlopen(url, timeout=5).read()
                return time.perf_counter() - self.started
            except urllib.error.HTTPError:  # 404: a missing document, answered
                return time.perf_counter() - self.started
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"{self.label} exited with status {self.process.returncode}")
                time.sleep(0.002)
        raise RuntimeError(f"{self.label} did not answer within 120 s")

    def rss_bytes(self):
        """The resident set of the process and all its descendants."""
        children = {}
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/stat") as stat:
                        parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                    children.setdefault(parent, []).append(int(pid))
                except OSError:
                    continue
        total, pending = 0, [self.process.pid]
        while pending:
            pid = pending.pop()
            pending.extend(children.get(pid, []))
            try:
                with open(f"/proc/{pid}/status") as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1]) * 1024
            except OSError:
                continue
        return total

    def stop(self):
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def client_for(emulator, project=PROJECT):
    os.environ["FIRESTORE_EMULATOR_HOST"] = emulator.host
    return firestore.Client(project=project)


class ReplayServer:
    """Benchmarks/replay_server.py in its own process, recording from `upstream` (see its docstring)."""

    label = "client floor"

    def __init__(self, upstream):
        self.port = free_port()
        self.host = f"127.0.0.1:{self.port}"
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "replay_server.py")
        self.process = subprocess.Popen(
            [sys.executable, script, "--port", str(self.port), "--upstream", upstream.host],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the replay server did not start")

    def start_replaying(self):
        self.process.send_signal(signal.SIGUSR1)
        time.sleep(0.2)

    def stop(self):
        self.process.kill()
        self.process.wait()


def interleaved_p50_ms(operations, samples, warm_up=30, chunk=25):
    """p50 in ms of each label's operation; the labels take turns in chunks of `chunk` samples,
    so that on a shared machine they meet the same load."""
    for operation in operations.values():
        for index in range(warm_up):
            operation(-1 - index)
    times = {label: [] for label in operations}
    for start in range(0, samples, chunk):
        for label, operation in operations.items():
            for index in range(start, min(start + chunk, samples)):
                started = time.perf_counter()
                operation(index)
                times[label].append(time.perf_counter() - started)
    return {label: statistics.median(values) * 1000 for label, values in times.items()}


def latencies(clients, samples, floor=None):
    """p50 in ms of each single operation, for each label's client. `floor`, a (ReplayServer,
    client) pair, adds the client's floor: each operation is first run through the replay server
    against its upstream (recording), then measured against the replay server answering from
    memory, interleaved with the others."""
    if floor is not None:
        replay, floor_client = floor
        clients = {**clients, replay.label: floor_client}
    operations = {name: {} for name in ["create", "get", "update", "equality query", "count"]}
    for label, client in clients.items():
        users = client.collection("latency-users")
        batch = client.batch()
        for index in range(1000):
            batch.set(users.document(f"u{index:04}"), {"group": index % 100, "name": f"user {index}"})
            if index % 500 == 499:
                batch.commit()
                batch = client.batch()
        docs = client.collection("latency-docs")
        query = users.where(filter=FieldFilter("group", "==", 7))
        assert len(query.get()) == 10
        count = users.count()
        assert count.get()[0][0].value == 1000
        operations["create"][label] = lambda i, docs=docs: docs.document(f"d{i}").create({"n": i, "name": "created"})
        operations["get"][label] = lambda i, docs=docs: docs.document(f"d{abs(i) % samples}").get()
        operations["update"][label] = lambda i, docs=docs: docs.document(f"d{abs(i) % samples}").update({"n": i})
        operations["equality query"][label] = lambda i, query=query: query.get()
        operations["count"][label] = lambda i, count=count: count.get()
    if floor is not None:
        for per_label in operations.values():
            for index in range(-30, samples):
                per_label[replay.label](index)
        replay.start_replaying()
    figures = {label: {} for label in clients}
    for name, per_label in operations.items():
        for label, p50 in interleaved_p50_ms(per_label, samples).items():
            figures[label][name] = p50
    return figures


def listen_supported(emulator):
    """Whether the server answers a Listen stream's add-target; False if it answers UNIMPLEMENTED."""
    channel = grpc.insecure_channel(emulator.host)
    listen = channel.stream_stream(
        "/google.firestore.v1.Firestore/Listen",
        request_serializer=firestore_pb.ListenRequest.serialize,
        response_deserializer=firestore_pb.ListenResponse.deserialize)
    database = f"projects/{PROJECT}/databases/(default)"
    request = firestore_pb.ListenRequest(database=database, add_target={
        "documents": {"documents": [f"{database}/documents/listen/probe"]}, "target_id": 1})
    finished = threading.Event()

    def requests():  # the stream stays open until the answer: a half-close ends a Listen
        yield request
        finished.wait()

    metadata = [("authorization", "Bearer owner"), ("google-cloud-resource-prefix", database)]
    responses = listen(requests(), metadata=metadata, timeout=30)
    try:
        next(responses)
        return True
    except grpc.RpcError as error:
        if error.code() == grpc.StatusCode.UNIMPLEMENTED:
            return False
        raise RuntimeError(f"{emulator.label} failed a Listen: {error.code()} {error.details()}") from error
    finally:
        finished.set()
        responses.cancel()
        channel.close()


def listener_p50_ms(client, samples):
    doc = client.collection("listen").document("d")
    doc.set({"i": -1})
    seen = {}
    arrived = threading.Condition()

    def on_snapshot(snapshots, changes, read_time):
        now = time.perf_counter()
        with arrived:
            for snapshot in snapshots:
                if snapshot.exists:
                    seen.setdefault(snapshot.get("i"), now)
            arrived.notify_all()

    watch = doc.on_snapshot(on_snapshot)
    try:
        with arrived:
            if not arrived.wait_for(lambda: -1 in seen, timeout=30):
                raise RuntimeError("no first snapshot within 30 s")
        times = []
        for index in range(-20, samples):  # 20 warm-up commits
            started = time.perf_counter()
            doc.set({"i": index})
            with arrived:
                if not arrived.wait_for(lambda: index in seen, timeout=30):
                    raise RuntimeError(f"no snapshot of commit {index} within 30 s")
            if index >= 0:
                times.append(seen[index] - started)
        return statistics.median(times) * 1000
    finally:
        watch.unsubscribe()


def contention(emulator, contenders=20):
    """20 threads, each with its own client, increment one counter in a transaction."""
    reference_path = "contention/counter"
    failures = []
    ready = threading.Barrier(contenders)

    def worker():
        client = client_for(emulator)
        reference = client.document(reference_path)

        @firestore.transactional
        def increment(transaction):
            snapshot = reference.get(transaction=transaction)
            transaction.set(reference, {"n": (snapshot.get("n") if snapshot.exists else 0) + 1})

        ready.wait()
        try:
            increment(client.transaction(max_attempts=5))
        except Exception as error:  # noqa: BLE001 - counted and reported
            failures.append(repr(error))

    threads = [threading.Thread(target=worker) for _ in range(contenders)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    value = client_for(emulator).document(reference_path).get().get("n")
    return {"committed": contenders - len(failures), "value": value, "seconds": wall}


def load(client, documents):
    users = client.collection("users")
    batch = client.batch()
    for index in range(documents):
        uid = f"{index:028x}"
        batch.set(users.document(uid), {
            "uid": uid, "email": f"user{index}@example.com", "displayName": f"User {index}",
            "photoURL": f"https://example.com/photos/{uid}.jpg",
            "createdAt": firestore.SERVER_TIMESTAMP, "updatedAt": firestore.SERVER_TIMESTAMP})
        if index % 500 == 499 or index == documents - 1:
            batch.commit()
            batch = client.batch()


def measure(commands, arguments):
    """Every figure of each labelled emulator. Starts alternate between the emulators, each alone;
    then both run, and the latencies interleave; the rest runs one emulator at a time."""
    starts = {label: [] for label in commands}
    for _ in range(arguments.starts - 1):
        for label, command in commands.items():
            print(f"starting {label}...", file=sys.stderr)
            emulator = Emulator(label, command)
            starts[label].append(emulator.start_seconds)
            emulator.stop()
    emulators = {}
    try:
        for label, command in commands.items():
            emulators[label] = Emulator(label, command)
            starts[label].append(emulators[label].start_seconds)
        time.sleep(2)
        figures = {label: {"start": statistics.median(starts[label]), "rss idle": emulator.rss_bytes()}
                   for label, emulator in emulators.items()}
        clients = {label: client_for(emulator) for label, emulator in emulators.items()}
        replay = ReplayServer(emulators["Hearth"])
        try:
            floor_client = client_for(replay, project=PROJECT + "-floor")
            print("measuring latencies...", file=sys.stderr)
            for label, values in latencies(clients, arguments.samples, floor=(replay, floor_client)).items():
                figures.setdefault(label, {}).update(values)
            print("measuring the client's floor for a listener...", file=sys.stderr)
            figures[replay.label]["listener"] = listener_p50_ms(floor_client, arguments.samples // 3)
        finally:
            replay.stop()
        for label, emulator in emulators.items():
            print(f"measuring {label}'s listener and contention...", file=sys.stderr)
            supported = listen_supported(emulator)
            figures[label]["listener"] = listener_p50_ms(clients[label], arguments.samples // 3) if supported else None
            figures[label]["contention"] = contention(emulator)
        for label, emulator in emulators.items():
            print(f"loading {arguments.documents} documents into {label}...", file=sys.stderr)
            started = time.perf_counter()
            load(clients[label], arguments.documents)
            figures[label]["load seconds"] = time.perf_counter() - started
            time.sleep(2)
            figures[label]["rss loaded"] = emulator.rss_bytes()
        return figures
    finally:
        for emulator in emulators.values():
            emulator.stop()


def report(hearth, google, arguments, floor=None):
    rows = []

    def row(name, hearth_text, google_text, ratio, goal, met):
        rows.append((name, hearth_text, google_text, ratio, goal, met))

    def faster(name, key, unit, goal, digits=2):
        h, g = hearth[key], google[key]
        if h is None or g is None:
            row(name, "unsupported" if h is None else f"{h:.{digits}f} {unit}",
                "unsupported" if g is None else f"{g:.{digits}f} {unit}", "-", f"≥ {goal}×", "n/a")
            return
        ratio = g / h
        row(name, f"{h:.{digits}f} {unit}", f"{g:.{digits}f} {unit}", f"{ratio:.1f}×", f"≥ {goal}×",
            "PASS" if ratio >= goal else "FAIL")

    def smaller(name, key):
        h, g = hearth[key] / 2**20, google[key] / 2**20
        ratio = h / g
        row(name, f"{h:.0f} MiB", f"{g:.0f} MiB", f"{ratio:.2f}", "≤ 0.25", "PASS" if ratio <= 0.25 else "FAIL")

    faster("start to first answered request", "start", "s", 20, digits=3)
    smaller("RSS idle", "rss idle")
    smaller(f"RSS after {arguments.documents:,} documents", "rss loaded")
    for operation in LATENCY_OPERATIONS:
        faster(f"p50 {operation}", operation, "ms", 3)
    faster("p50 listener, commit to callback", "listener", "ms", 3)
    h, g = hearth["contention"], google["contention"]
    met = h["committed"] == 20 and h["value"] == 20 and h["seconds"] < g["seconds"]
    row("20 contending transactions", f"{h['committed']}/20 in {h['seconds']:.2f} s",
        f"{g['committed']}/20 in {g['seconds']:.2f} s", f"{g['seconds'] / h['seconds']:.1f}×",
        "all commit, less time", "PASS" if met else "FAIL")

    widths = [max(len(str(r[i])) for r in rows + [HEADER]) for i in range(len(HEADER))]
    for line in [HEADER] + rows:
        print(" | ".join(str(cell).ljust(width) for cell, width in zip(line, widths)))
    print(f"loading {arguments.documents:,} documents (500 per commit): Hearth {hearth['load seconds']:.1f} s, "
          f"Google's {google['load seconds']:.1f} s; contention final values: Hearth {h['value']}, Google's {g['value']}")
    missed = [r[0] for r in rows if r[5] == "FAIL"]
    print("goals missed: " + (", ".join(missed) if missed else "none"))
    if floor:
        print()
        print_floor(hearth, google, floor)


LATENCY_OPERATIONS = ["create", "get", "update", "equality query", "count"]


def print_floor(hearth, google, floor):
    """The latencies against the client's floor: the highest ratio any server could reach with this
    client on this machine, and the ratio of the time each emulator adds above the floor."""
    header = ("p50", "client floor", "Hearth above floor", "Google's above floor", "ratio above floor",
              "highest reachable ratio")
    rows = []
    for operation in LATENCY_OPERATIONS + ["listener"]:
        f, h, g = floor[operation], hearth[operation], google[operation]
        if h is None or g is None:
            continue
        above_hearth, above_google = max(h - f, 0.001), max(g - f, 0.0)
        rows.append((operation, f"{f:.2f} ms", f"{h - f:.2f} ms", f"{g - f:.2f} ms",
                     f"{above_google / above_hearth:.1f}×", f"{g / f:.1f}×"))
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    for line in [header] + rows:
        print(" | ".join(str(cell).ljust(width) for cell, width in zip(line, widths)))


HEADER = ("measure", "Hearth", "Google's emulator", "ratio", "goal", "result")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hearth", required=True, help="the hearth executable (a release build)")
    parser.add_argument("--google", default=GOOGLE_DEFAULT, help="Google's emulator launcher")
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--starts", type=int, default=3)
    arguments = parser.parse_args()
    if not os.access(arguments.google, os.X_OK) or shutil.which("java") is None:
        print(f"Google's emulator is not installed ({arguments.google}, with java): nothing to compare against")
        return 1
    scratch = tempfile.mkdtemp(prefix="server-vs-google-")
    folders = iter(range(1_000_000))
    commands = {
        "Hearth": lambda: [arguments.hearth, "start", "--port", "{port}", "--project", PROJECT,
                           "--data", os.path.join(scratch, f"data{next(folders)}")],
        "Google's emulator": lambda: [arguments.google, "--host", "127.0.0.1", "--port", "{port}"],
    }
    try:
        figures = measure(commands, arguments)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    hearth, google = figures["Hearth"], figures["Google's emulator"]
    report(hearth, google, arguments, floor=figures.get(ReplayServer.label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
