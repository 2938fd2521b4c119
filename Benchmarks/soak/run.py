"""The soak benchmark: a release Hearth under a steady mixed load for a long time, through the
official google-cloud-firestore Python client (issue 13; BENCHMARKS.md, "Soak").

It starts `hearth start` on a free port with a fresh data folder, then runs:
  - --clients worker processes, each in a loop of mixed operations on its own documents and on
    shared counters: create, update, get, an equality query, a count, a batch of 3 sets, a delete,
    and a transaction that increments one of 8 shared counters (the client retries ABORTED);
  - --listeners on_snapshot listeners spread over 3 processes, on single documents and on
    queries over the workers' documents.
Every minute it prints the operations per second, p50/p99 latency, errors by status code, the
listener events received and the server's RSS. At the end it stops the load and checks:
  - every write a worker saw acknowledged is there, with the value it wrote (deleted documents
    are gone);
  - each counter equals the increments whose transactions committed;
  - RSS growth over the last 45 minutes (scaled for shorter runs: the last three quarters) is
    under 10%: the largest RSS of that window against the RSS at its start.
Exit status 0 when every goal is met, 1 otherwise.

With --bounded N each worker keeps at most N live documents (a create or a batch becomes a delete
while it holds N), and --retention S has Hearth keep old document versions S seconds instead of an
hour (HEARTH_TEST_ONLY_RETENTION_SECONDS): together they give a data set of steady size, so that
RSS growth can be told apart from data growth.

Usage (a release build: swift build -c release --product hearth):
    .venv-interop/bin/python Benchmarks/soak/run.py --hearth .build/release/hearth [--minutes 60]
        [--clients 16] [--listeners 300] [--bounded 500 --retention 300]
"""

import argparse
import collections
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from server_vs_google import Emulator  # noqa: E402

PROJECT = "demo-soak"
COUNTERS = 8


def client(host):
    os.environ["FIRESTORE_EMULATOR_HOST"] = host
    from google.cloud import firestore
    return firestore.Client(project=PROJECT)


def status_of(error):
    """The gRPC status name of a failed call (the client's exceptions carry an HTTP code too)."""
    status = getattr(error, "grpc_status_code", None)
    name = getattr(status, "name", None) or type(error).__name__
    return f"{name}: {str(error)[:160]}"


def worker(index, host, stop, reports, results, bound=None):
    """One client process: mixed operations until `stop`; reports (latencies, errors) every
    second; at the end, what it knows must be stored."""
    from google.cloud import firestore
    from google.cloud.firestore_v1.base_query import FieldFilter

    db = client(host)
    rng = random.Random(index)
    mine = db.collection(f"soak/w{index}/docs")
    acknowledged = {}  # document id -> value of "v" acknowledged last, None once deleted
    increments = collections.Counter()
    latencies, errors = [], collections.Counter()
    next_id, last_report = 0, time.monotonic()

    @firestore.transactional
    def increment(transaction, reference):
        snapshot = reference.get(transaction=transaction)
        transaction.set(reference, {"n": (snapshot.get("n") if snapshot.exists else 0) + 1})

    while not stop.is_set():
        live = [key for key, value in acknowledged.items() if value is not None]
        choice = rng.random()
        if bound is not None and len(live) >= bound and (choice < 0.25 or 0.75 <= choice < 0.83):
            choice = 0.85  # a delete instead of a create or a batch of sets: the data set stays bounded
        started = time.perf_counter()
        try:
            if choice < 0.25 or not live:
                key = f"d{next_id}"
                next_id += 1
                value = rng.randrange(1_000_000)
                mine.document(key).create({"v": value, "group": rng.randrange(10), "pad": "x" * 200})
                acknowledged[key] = value
            elif choice < 0.40:
                key, value = rng.choice(live), rng.randrange(1_000_000)
                mine.document(key).update({"v": value})
                acknowledged[key] = value
            elif choice < 0.60:
                mine.document(rng.choice(live)).get()
            elif choice < 0.70:
                list(mine.where(filter=FieldFilter("group", "==", rng.randrange(10))).limit(20).stream())
            elif choice < 0.75:
                mine.count().get()
            elif choice < 0.83:
                batch = db.batch()
                staged = {}
                for _ in range(3):
                    key, value = f"d{next_id}", rng.randrange(1_000_000)
                    next_id += 1
                    batch.set(mine.document(key), {"v": value, "group": rng.randrange(10)})
                    staged[key] = value
                batch.commit()
                acknowledged.update(staged)
            elif choice < 0.88:
                key = rng.choice(live)
                mine.document(key).delete()
                acknowledged[key] = None
            else:
                counter = rng.randrange(COUNTERS)
                increment(db.transaction(max_attempts=20), db.collection("counters").document(f"c{counter}"))
                increments[counter] += 1
            latencies.append(time.perf_counter() - started)
        except Exception as error:  # noqa: BLE001 - every failure is counted by its status
            errors[status_of(error)] += 1
        if time.monotonic() - last_report >= 1:
            reports.put(("ops", latencies, dict(errors)))
            latencies, errors, last_report = [], collections.Counter(), time.monotonic()
    reports.put(("ops", latencies, dict(errors)))
    results.put((index, acknowledged, dict(increments)))


def listener_process(index, host, count, clients, stop, reports):
    """`count` on_snapshot listeners: single documents of the workers and queries over them."""
    from google.cloud.firestore_v1.base_query import FieldFilter

    db = client(host)
    events = collections.Counter()
    lock = threading.Lock()

    def on_snapshot(*_):
        with lock:
            events["events"] += 1

    watches = []
    for number in range(count):
        worker_index = (index * count + number) % clients
        docs = db.collection(f"soak/w{worker_index}/docs")
        if number % 2 == 0:
            watches.append(docs.document(f"d{number % 50}").on_snapshot(on_snapshot))
        else:
            query = docs.where(filter=FieldFilter("group", "==", number % 10)).limit(10)
            watches.append(query.on_snapshot(on_snapshot))
    while not stop.wait(1):
        with lock:
            received, events["events"] = events["events"], 0
        reports.put(("events", received))
    for watch in watches:
        watch.unsubscribe()


def verify(host, acknowledged_by_worker, increments):
    """The problems found in the final state: acknowledged writes missing or wrong, counters off."""
    db = client(host)
    problems = []
    checked = 0
    for worker_index, acknowledged in acknowledged_by_worker.items():
        stored = {snapshot.id: snapshot.get("v") for snapshot in db.collection(f"soak/w{worker_index}/docs").stream()}
        for key, value in acknowledged.items():
            checked += 1
            if value is None and key in stored:
                problems.append(f"w{worker_index}/{key} was deleted but is there")
            elif value is not None and stored.get(key) != value:
                problems.append(f"w{worker_index}/{key}: acknowledged v={value}, stored {stored.get(key)}")
    for counter in range(COUNTERS):
        snapshot = db.collection("counters").document(f"c{counter}").get()
        stored = snapshot.get("n") if snapshot.exists else 0
        expected = sum(increment.get(counter, 0) for increment in increments)
        if stored != expected:
            problems.append(f"counter c{counter}: {stored}, committed increments {expected}")
    return checked, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hearth", required=True, help="a release hearth binary")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--listeners", type=int, default=300)
    parser.add_argument("--bounded", type=int, help="the most live documents each worker keeps")
    parser.add_argument("--retention", type=int, help="seconds Hearth keeps old versions (at least 60)")
    arguments = parser.parse_args()
    if arguments.retention is not None:
        os.environ["HEARTH_TEST_ONLY_RETENTION_SECONDS"] = str(arguments.retention)

    scratch = tempfile.mkdtemp(prefix="hearth-soak-")
    server_log = os.path.join(scratch, "hearth.log")
    server = Emulator("Hearth", lambda: [
        "sh", "-c", f'exec "$0" start --port {{port}} --project {PROJECT} --data "{scratch}/data" '
        f'--log-level warning >>"{server_log}" 2>&1', arguments.hearth])
    context = multiprocessing.get_context("spawn")
    stop, reports, results = context.Event(), context.Queue(), context.Queue()
    workers = [context.Process(target=worker, args=(index, server.host, stop, reports, results, arguments.bounded))
               for index in range(arguments.clients)]
    listener_processes = [
        context.Process(target=listener_process,
                        args=(index, server.host, arguments.listeners // 3 + (index < arguments.listeners % 3),
                              arguments.clients, stop, reports))
        for index in range(3)]
    for process in workers + listener_processes:
        process.start()

    print(f"Soak: {arguments.clients} clients, {arguments.listeners} listeners, {arguments.minutes:g} minutes, "
          f"bounded to {arguments.bounded or 'no limit of'} documents per client, old versions kept "
          f"{arguments.retention or 3600} s, "
          f"Hearth at {server.host}, its failed requests logged to {server_log}", flush=True)
    print("minute  ops/s    p50 ms   p99 ms   listener events/s  RSS MB  errors", flush=True)
    rss_by_minute, total_errors, total_ops = [], collections.Counter(), 0
    deadline = time.monotonic() + arguments.minutes * 60
    minute = 0
    while time.monotonic() < deadline:
        minute += 1
        window_end = min(deadline, time.monotonic() + 60)
        latencies, errors, events = [], collections.Counter(), 0
        window_start = time.monotonic()
        while time.monotonic() < window_end:
            try:
                report = reports.get(timeout=max(0.1, window_end - time.monotonic()))
            except Exception:  # noqa: BLE001 - queue.Empty: the minute is over
                continue
            if report[0] == "ops":
                latencies.extend(report[1])
                errors.update(report[2])
            else:
                events += report[1]
        seconds = time.monotonic() - window_start
        rss = server.rss_bytes()
        rss_by_minute.append(rss)
        total_errors.update(errors)
        total_ops += len(latencies)
        ordered = sorted(latencies) or [0.0]
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        print(f"{minute:6d} {len(latencies) / seconds:7.1f} {statistics.median(ordered) * 1000:8.2f} "
              f"{p99 * 1000:8.2f} {events / seconds:18.1f} {rss / 2**20:7.1f}  {dict(errors) or 0}", flush=True)

    stop.set()
    acknowledged, increments = {}, []
    for _ in workers:
        index, known, counted = results.get(timeout=300)
        acknowledged[index] = known
        increments.append(counted)
    while True:  # the workers' last reports
        try:
            report = reports.get(timeout=1)
        except Exception:  # noqa: BLE001 - queue.Empty
            break
        if report[0] == "ops":
            total_errors.update(report[2])
            total_ops += len(report[1])
    for process in workers + listener_processes:
        process.join(timeout=60)

    checked, problems = verify(server.host, acknowledged, increments)
    server.stop()
    window = rss_by_minute[len(rss_by_minute) // 4:] or rss_by_minute
    growth = (max(window) - window[0]) / window[0] if window and window[0] else 0.0
    print(f"\nOperations: {total_ops}; errors by status: {dict(total_errors) or 'none'}")
    print(f"Acknowledged writes checked: {checked}; problems: {len(problems)}")
    for problem in problems[:20]:
        print(f"  {problem}")
    print(f"RSS over the last {len(window)} minutes: {window[0] / 2**20:.1f} MB at the start, "
          f"{max(window) / 2**20:.1f} MB at most: growth {growth * 100:.1f}% (goal under 10%)")
    goals = {"0 errors": not total_errors, "every acknowledged write present, counters exact": not problems,
             "RSS growth under 10%": growth < 0.10}
    for goal, met in goals.items():
        print(f"  {goal}: {'met' if met else 'MISSED'}")
    sys.exit(0 if all(goals.values()) else 1)


if __name__ == "__main__":
    main()
