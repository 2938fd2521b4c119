#!/usr/bin/env python3
"""Differential query test: Google's Firestore emulator against Hearth.

Usage:
    diff.py [--seeds 1,2,3 | --new N | --recorded | --cases FILE ...] [options]

    --seeds LIST     generate these seeds, record them from Google's emulator, run Hearth's
                     QueryProbe on the same cases and compare (default: the fixed set 1-6).
    --new N          the same with N fresh random seeds (printed, to replay with --seeds).
    --recorded       no emulator: compare Hearth with the committed recordings in cases/.
    --cases FILE...  no emulator: compare Hearth with these recorded case files.

Options:
    --queries N        queries per generated seed (default 100).
    --emulator H:P     use a running Google emulator instead of starting one.
    --probe PATH       a built QueryProbe binary (default: build it with
                       `swift build --scratch-path .build-qdiff --product QueryProbe`).
    --server H:P       run Hearth's side through a running Hearth server instead of the probe:
                       the official client's RunQuery and RunAggregationQuery over gRPC, as the
                       cases were recorded from Google's emulator (scripts/test-interop does
                       this on the committed recordings).
    --scratch-path DIR SwiftPM scratch path for that build (default: <repo>/.build-qdiff).
    --work-dir DIR     where recorded cases go (default: <scratch-path>/query-diff).
    --messages         also fail when an error message differs (codes always must match).
    --max-shown N      print at most N differences in full (default 200).

Prints every difference (query, expected, actual) and ends with the line
`query-diff: N passed, N failed` (and `, N skipped` for queries on which Google's emulator itself
failed with UNKNOWN or INTERNAL). Exit status 1 when anything differs. When Google's emulator is
not installed (and cases must be recorded), it says so and exits 0 as skipped.
"""

import argparse
import base64
import datetime
import glob
import json
import math
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import generate  # noqa: E402
import record    # noqa: E402

PROBE_TIMEOUT = 900          # seconds for the probe on one case file
BUILD_TIMEOUT = 3600         # seconds for building the probe
EMULATOR_FAILURES = {"UNKNOWN", "INTERNAL"}
DOUBLE_TOLERANCE = 1e-9      # relative, for aggregation results only (summation order)


# ---------------------------------------------------------------------------------------------
# Canonical values: REST JSON from either side, compared by Firestore type and value.


def parse_timestamp(text):
    """(seconds, nanos) of an RFC 3339 timestamp."""
    date, _, time_part = text.partition("T")
    offset = 0
    if time_part.endswith("Z") or time_part.endswith("z"):
        time_part = time_part[:-1]
    else:
        for sign in "+-":
            if sign in time_part:
                time_part, _, zone = time_part.rpartition(sign)
                hours, minutes = zone.split(":")
                offset = (int(hours) * 3600 + int(minutes) * 60) * (1 if sign == "+" else -1)
                break
    clock, _, fraction = time_part.partition(".")
    year, month, day = (int(x) for x in date.split("-"))
    hour, minute, second = (int(x) for x in clock.split(":"))
    days = (datetime.date(year, month, day) - datetime.date(1970, 1, 1)).days
    seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset
    nanos = int((fraction + "000000000")[:9]) if fraction else 0
    return seconds, nanos


def b64(text):
    text = text.replace("-", "+").replace("_", "/")
    return base64.b64decode(text + "=" * (-len(text) % 4))


def number(value):
    if isinstance(value, str):
        return float(value)   # "NaN", "Infinity", "-Infinity"
    return float(value)


def canon(value):
    """A hashable, comparable-by-== form of one REST JSON value."""
    if not isinstance(value, dict) or len(value) != 1:
        return ("invalid", json.dumps(value, sort_keys=True))
    kind, payload = next(iter(value.items()))
    if kind == "nullValue":
        return ("null",)
    if kind == "booleanValue":
        return ("boolean", bool(payload))
    if kind == "integerValue":
        return ("integer", int(payload))
    if kind == "doubleValue":
        d = number(payload)
        return ("double", "NaN" if math.isnan(d) else d)
    if kind == "timestampValue":
        return ("timestamp", parse_timestamp(payload))
    if kind == "stringValue":
        return ("string", payload)
    if kind == "bytesValue":
        return ("bytes", b64(payload))
    if kind == "referenceValue":
        return ("reference", payload)
    if kind == "geoPointValue":
        return ("geoPoint", float(payload.get("latitude", 0)), float(payload.get("longitude", 0)))
    if kind == "arrayValue":
        return ("array", tuple(canon(v) for v in (payload or {}).get("values", [])))
    if kind == "mapValue":
        return ("map", canon_fields((payload or {}).get("fields", {})))
    return ("invalid", json.dumps(value, sort_keys=True))


def canon_fields(fields):
    return tuple(sorted((k, canon(v)) for k, v in (fields or {}).items()))


def same_aggregate(expected, actual):
    a, b = canon(expected), canon(actual)
    if a == b:
        return True
    if a[0] == b[0] == "double" and a[1] != "NaN" and b[1] != "NaN":
        x, y = a[1], b[1]
        if math.isinf(x) or math.isinf(y):
            return x == y
        return abs(x - y) <= DOUBLE_TOLERANCE * max(abs(x), abs(y))
    return False


# ---------------------------------------------------------------------------------------------
# Comparing one query


def compare(expected, actual, strict_messages=False):
    """(status, notes): status is "pass", "fail" or "skip"."""
    if actual is None:
        return "fail", "no result from Hearth"
    if "error" in expected:
        if expected["error"]["code"] in EMULATOR_FAILURES:
            return "skip", "Google's emulator failed: %s %s" % (expected["error"]["code"], expected["error"]["message"])
        if expected["error"]["code"] == "FAILED_PRECONDITION" and "descending key scans" in expected["error"]["message"]:
            # A difference kept on purpose (Docs/Compatibility.md): Google's emulator refuses a
            # descending scan of names alone; production Firestore and Hearth answer it (or refuse
            # it for another reason the emulator would reach next).
            if "descending" in actual.get("error", {}).get("message", ""):
                return "fail", "refused a descending name scan"
            return "pass", None
        if "error" not in actual:
            return "fail", "expected error %s, got a result" % expected["error"]["code"]
        if actual["error"]["code"] != expected["error"]["code"]:
            return "fail", "error code %s, expected %s" % (actual["error"]["code"], expected["error"]["code"])
        if actual["error"].get("message") != expected["error"]["message"]:
            return ("fail" if strict_messages else "pass"), "message differs"
        return "pass", None
    if "error" in actual:
        return "fail", "unexpected error %s" % actual["error"]["code"]
    if "aggregation" in expected:
        e, a = expected["aggregation"], actual.get("aggregation")
        if a is None:
            return "fail", "expected an aggregation result"
        if sorted(e) != sorted(a):
            return "fail", "aggregation names %s, expected %s" % (sorted(a), sorted(e))
        for name in e:
            if not same_aggregate(e[name], a[name]):
                return "fail", "aggregation %r differs" % name
        return "pass", None
    if actual.get("documents") != expected["documents"]:
        e, a = expected["documents"], actual.get("documents") or []
        missing = [n for n in e if n not in a]
        extra = [n for n in a if n not in e]
        if not missing and not extra:
            return "fail", "same documents, different order"
        return "fail", "missing %d, extra %d documents" % (len(missing), len(extra))
    if "fields" in expected:
        got = actual.get("fields")
        if got is None or len(got) != len(expected["fields"]):
            return "fail", "projected fields missing"
        for i, (e, a) in enumerate(zip(expected["fields"], got)):
            if canon_fields(e) != canon_fields(a):
                return "fail", "projected fields of %s differ" % expected["documents"][i]
    return "pass", None


# ---------------------------------------------------------------------------------------------
# Hearth's probe


def build_probe(scratch_path):
    command = ["swift", "build", "--scratch-path", scratch_path, "--product", "QueryProbe"]
    print("building: %s" % " ".join(command), flush=True)
    subprocess.run(command, cwd=REPO, check=True, timeout=BUILD_TIMEOUT)
    path = subprocess.run(command + ["--show-bin-path"], cwd=REPO, check=True, capture_output=True,
                          text=True, timeout=BUILD_TIMEOUT).stdout.strip()
    return os.path.join(path, "QueryProbe")


def run_probe(probe, path):
    """({query id: result}, None) from Hearth's probe, or ({}, why) when the probe failed; a crash
    is run again with QUERY_PROBE_TRACE=1 to name the query it died on."""
    completed = subprocess.run([probe, path], capture_output=True, text=True, timeout=PROBE_TIMEOUT)
    if completed.returncode == 0:
        results = json.loads(completed.stdout)
        return {entry["id"]: entry["result"] for entry in results}, None
    why = "QueryProbe failed on %s (status %d)" % (os.path.basename(path), completed.returncode)
    traced = subprocess.run([probe, path], capture_output=True, text=True, timeout=PROBE_TIMEOUT,
                            env=dict(os.environ, QUERY_PROBE_TRACE="1"))
    running = [line for line in traced.stderr.splitlines() if line.startswith("QueryProbe: running ")]
    if running:
        why += " while running %s" % running[-1].split()[-1]
    tail = [line for line in completed.stderr.splitlines() if line.strip()][:12]
    return {}, why + "\n    " + "\n    ".join(tail)


def run_server(runner, path):
    """({query id: result}, None) from a Hearth server through the official client."""
    with open(path, encoding="utf-8") as f:
        case = json.load(f)
    runner.seed(case)
    return {query["id"]: runner.run(case, query) for query in case["queries"]}, None


def category(note):
    """A difference's kind, for the summary."""
    if note.startswith("missing"):
        return "different documents (membership)"
    if note.startswith("aggregation names"):
        return "aggregation result names differ"
    if note.startswith("aggregation "):
        return "aggregation value differs"
    if note.startswith("projected fields"):
        return "projected fields differ"
    if note.startswith("error code"):
        return "wrong error code: " + note
    return note


def features(query):
    """The coverage features of one query (see generate.coverage)."""
    return sorted(k for k in generate.coverage([{"queries": [query]}]) if not k.startswith("result:"))


def short(value, limit=1500):
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + " ..."


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--seeds", type=record.parse_seeds)
    source.add_argument("--new", type=int, metavar="N")
    source.add_argument("--recorded", action="store_true")
    source.add_argument("--cases", nargs="+", metavar="FILE")
    parser.add_argument("--queries", type=int, default=generate.DEFAULT_QUERIES)
    parser.add_argument("--emulator", metavar="HOST:PORT")
    parser.add_argument("--probe")
    parser.add_argument("--server", metavar="HOST:PORT")
    parser.add_argument("--scratch-path", default=os.path.join(REPO, ".build-qdiff"))
    parser.add_argument("--work-dir")
    parser.add_argument("--messages", action="store_true")
    parser.add_argument("--max-shown", type=int, default=200)
    args = parser.parse_args()
    if not 1 <= args.queries <= 100000:
        parser.error("--queries must be between 1 and 100000")
    if args.new is not None and not 1 <= args.new <= 1000:
        parser.error("--new takes between 1 and 1000 seeds")

    if args.recorded:
        files = sorted(glob.glob(os.path.join(record.CASES_DIR, "seed-*.json")))
    elif args.cases:
        files = args.cases
    else:
        if not args.emulator and record.find_emulator() is None:
            print("query-diff: Google's Firestore emulator (cloud_firestore_emulator) is not installed; "
                  "skipped (use --recorded to check Hearth against the committed recordings)")
            return 0
        record.ensure_client()   # may run this script again in .venv-conformance
        seeds = args.seeds or record.FIXED_SEEDS
        if args.new is not None:
            rng = random.SystemRandom()
            seeds = [rng.randrange(1000, 2 ** 31) for _ in range(args.new)]
            print("new seeds: %s (replay with --seeds)" % ",".join(str(s) for s in seeds))
        emulator = record.Emulator(args.emulator)
        emulator.start()
        work_dir = args.work_dir or os.path.join(args.scratch_path, "query-diff")
        files = record.record_seeds(emulator, seeds, args.queries, work_dir)
        emulator.stop()
    if not files:
        print("query-diff: no case files")
        return 1

    if args.server:
        record.ensure_client()
        server = record.Emulator(args.server)
        server.start()
        runner = record.Runner(server)
        run_hearth = lambda path: run_server(runner, path)  # noqa: E731
    else:
        probe = args.probe or build_probe(args.scratch_path)
        run_hearth = lambda path: run_probe(probe, path)  # noqa: E731
    passed = failed = skipped = shown = message_notes = 0
    kinds, failing_features, all_features = {}, {}, {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        started = time.monotonic()
        actual, crash = run_hearth(path)
        elapsed = time.monotonic() - started
        if crash:
            print("\n%s" % crash)
        file_failed = 0
        for query in case["queries"]:
            if "expected" not in query:
                continue
            for feature in features(query):
                all_features[feature] = all_features.get(feature, 0) + 1
            status, note = compare(query["expected"], actual.get(query["id"]), args.messages)
            if status == "skip":
                skipped += 1
                continue
            if status == "pass":
                passed += 1
                if note:
                    message_notes += 1
                continue
            failed += 1
            file_failed += 1
            kinds[category(note)] = kinds.get(category(note), 0) + 1
            for feature in features(query):
                failing_features[feature] = failing_features.get(feature, 0) + 1
            if shown < args.max_shown:
                shown += 1
                body = {k: v for k, v in query.items() if k not in ("id", "expected")}
                print("\nDIFF %s (%s): %s" % (query["id"], os.path.basename(path), note))
                print("  query:    %s" % short(body))
                print("  expected: %s" % short(query["expected"]))
                print("  actual:   %s" % short(actual.get(query["id"])))
        print("%s: %d queries, %d differ, Hearth %.1f s" % (
            os.path.relpath(path), len(case["queries"]), file_failed, elapsed), flush=True)
    if failed:
        print("\nDifferences by kind:")
        for kind, count in sorted(kinds.items(), key=lambda item: (-item[1], item[0])):
            print("  %5d  %s" % (count, kind))
        print("Failing share of queries by feature (failing / having the feature):")
        for feature in sorted(all_features):
            if failing_features.get(feature):
                print("  %5d / %-5d %s" % (failing_features[feature], all_features[feature], feature))
    if message_notes:
        print("(%d refused queries got the right code with a different message; --messages makes them fail)"
              % message_notes)
    summary = "query-diff: %d passed, %d failed" % (passed, failed)
    if skipped:
        summary += ", %d skipped" % skipped
    print(summary)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
