"""Transactions against Google's emulator, in the same run, through the official client.

    .venv-interop/bin/python Benchmarks/transactions_vs_google.py --hearth .build-bench-release/release/hearth [--rounds 3]

Per round, on a fresh Hearth and a fresh Google emulator (each in its own process group):
  - 20 contending transactions: 20 threads, each with its own client, increment one counter in a
    `@transactional` function (5 attempts); wall time, commits, the counter's final value;
  - 10 shared-read transactions: 10 threads each read one shared document in a transaction, wait
    until all have read, then write their own document and commit; wall time, commits, and
    reads that failed.
Prints each figure and the ratio Google's wall time / Hearth's (the goal: Hearth all commit, in at
most Google's wall time, so a ratio of at least 1).
"""

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_vs_google import GOOGLE_DEFAULT, PROJECT, Emulator, client_for, contention  # noqa: E402


def shared_reads(emulator, readers=10):
    """10 transactions reading one shared document, then each writing its own."""
    setup = client_for(emulator)
    setup.document("shared/config").set({"limit": 10})
    read_failures, commit_failures = [], []
    barrier = threading.Barrier(readers)

    def worker(index):
        client = client_for(emulator)
        transaction = client.transaction()
        transaction._begin()
        try:
            limit = client.document("shared/config").get(transaction=transaction).get("limit")
        except Exception as error:  # noqa: BLE001 - counted and reported
            read_failures.append(repr(error))
            barrier.abort()
            return
        try:
            barrier.wait(timeout=30)
        except threading.BrokenBarrierError:
            pass
        transaction.set(client.document(f"shared/user{index}"), {"limit": limit})
        try:
            transaction._commit()
        except Exception as error:  # noqa: BLE001 - counted and reported
            commit_failures.append(repr(error))

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(readers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    return {"committed": readers - len(read_failures) - len(commit_failures), "read_failures": len(read_failures),
            "seconds": wall}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hearth", required=True, help="the hearth executable (a release build)")
    parser.add_argument("--google", default=GOOGLE_DEFAULT, help="Google's emulator launcher")
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    if not os.access(arguments.google, os.X_OK) or shutil.which("java") is None:
        print(f"Google's emulator is not installed ({arguments.google}, with java): nothing to compare against")
        return 1
    scratch = tempfile.mkdtemp(prefix="transactions-vs-google-")
    commands = {
        "Hearth": lambda: [arguments.hearth, "start", "--port", "{port}", "--project", PROJECT,
                           "--data", os.path.join(scratch, f"data{time.monotonic_ns()}"), "--log-level", "error"],
        "Google's emulator": lambda: [arguments.google, "--host", "127.0.0.1", "--port", "{port}"],
    }
    results = {label: {"contention": [], "shared": []} for label in commands}
    try:
        for _ in range(arguments.rounds):
            for label, command in commands.items():
                emulator = Emulator(label, command)
                try:
                    results[label]["contention"].append(contention(emulator))
                    results[label]["shared"].append(shared_reads(emulator))
                finally:
                    emulator.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{'measure':<40}{'Hearth':>30}{'Google':>30}{'ratio':>8}")
    for key, name, total in (("contention", "20 contending increments", 20), ("shared", "10 shared-read transactions", 10)):
        hearth, google = results["Hearth"][key], results["Google's emulator"][key]
        for index, (h, g) in enumerate(zip(hearth, google)):
            ratio = g["seconds"] / h["seconds"]
            verdict = "PASS" if h["committed"] == total and ratio >= 1 else "FAIL"
            extra = lambda r: f", {r['read_failures']} reads failed" if "read_failures" in r else ""  # noqa: E731
            print(f"{name + f' (round {index + 1})':<40}"
                  f"{str(h['committed']) + f'/{total} in ' + format(h['seconds'], '.2f') + ' s' + extra(h):>30}"
                  f"{str(g['committed']) + f'/{total} in ' + format(g['seconds'], '.2f') + ' s' + extra(g):>30}"
                  f"{ratio:>7.1f}x {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
