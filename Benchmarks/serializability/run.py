"""The list-append serializability check (Tests/Interop/support/list_append.py) against the
emulator at FIRESTORE_EMULATOR_HOST: client threads run random read/query-and-append
transactions for a while, then the history is searched for dependency cycles (G0, G1c, G2).

    run.py [--seconds 300] [--threads 16] [--expect none|anomaly]

`--expect none` (the default) fails if any anomaly is found; `--expect anomaly` fails if none
is, which shows the checker can fail (scripts/test-interop runs it against a Hearth started
with HEARTH_TEST_ONLY_NO_RANGE_LOCKS=1). Prints the transaction count and the abort rate.
"""

import argparse
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Interop", "support"))
from list_append import check, run_workload  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--expect", choices=["none", "anomaly"], default="none")
    arguments = parser.parse_args()
    project = os.environ.get("GCLOUD_PROJECT", "demo-serializability")
    started = time.monotonic()
    history, final = run_workload(project, f"elle-{uuid.uuid4().hex[:8]}", arguments.threads, arguments.seconds)
    elapsed = time.monotonic() - started
    anomalies = check(history, final)
    committed = len(history.committed)
    aborted = history.attempts - committed
    print(f"serializability: {committed} transactions committed in {elapsed:.0f} s "
          f"({committed / elapsed:.1f}/s) by {arguments.threads} threads; {history.attempts} attempts, "
          f"abort rate {aborted / max(1, history.attempts):.1%}; {history.failures} gave up after 5 attempts")
    if anomalies:
        for kind, found in sorted(anomalies.items()):
            print(f"  anomaly {kind}: {len(found)} found, e.g. {found[0]}")
    else:
        print("  no anomaly: no G0, G1c or G2 cycle, every observed list a prefix of the final one")
    ok = (not anomalies) if arguments.expect == "none" else bool(anomalies)
    label = "no anomaly expected" if arguments.expect == "none" else "an anomaly expected (range locks off)"
    print(f"serializability ({label}): {1 if ok else 0} passed, {0 if ok else 1} failed")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
