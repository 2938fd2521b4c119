"""Round trips of Google's Firestore export format between Google's emulator and Hearth,
compared document by document and field by field (value types included) through the official
google-cloud-firestore client:

1. a dataset written to Google's emulator, exported through its export endpoint, imported into
   Hearth (`hearth import`);
2. that data exported from Hearth (`hearth export`) and loaded by Google's emulator
   (`--seed_from_export`);
3. Hearth's export imported into a fresh Hearth;
4. an export through Hearth's `:export` endpoint (Google's request body) seeded into Google's
   emulator;
5. Google's export given to `hearth start --import` for another project: the client's project is
   seeded on its first use, as Google's emulator seeds every project; a named database
   (`other`) is seeded by neither (steps 2 and 5).

The dataset has every value type (null, booleans, int64 ends, doubles with NaN, infinities and
-0.0, timestamps to the microsecond, Unicode strings, bytes, references, geo points, arrays,
maps nested 20 deep, vectors), numeric ids (`__id7__`), ids needing escapes, documents under
missing parents, and 1,000 random documents.

Usage: export_roundtrip.py HEARTH_BINARY [GOOGLE_EMULATOR_LAUNCHER]. Run by scripts/test-interop;
exits 0 with a message where Google's emulator (or java) is not installed, 1 if a check fails.
"""

import datetime
import json
import math
import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

from google.cloud import firestore
from google.cloud.firestore_v1 import GeoPoint
from google.cloud.firestore_v1.vector import Vector

PROJECT = "demo-interop"
LAUNCHERS = [
    "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
    "/usr/share/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Emulator:
    """A running emulator (Google's or Hearth) with a client for it; stop() ends it."""

    def __init__(self, command, ready, address):
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 120
        while True:
            self.log.seek(0)
            output = self.log.read().decode(errors="replace")
            if ready in output:
                break
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"{command[0]} did not start:\n{output}")
            time.sleep(0.2)
        self.address = address(output)
        os.environ["FIRESTORE_EMULATOR_HOST"] = self.address
        self.client = firestore.Client(project=PROJECT)

    def stop(self):
        os.killpg(self.process.pid, 15)
        self.process.wait(timeout=60)


def google(launcher, seed=None):
    port = free_port()
    command = [launcher, "--host", "127.0.0.1", "--port", str(port)]
    if seed:
        command.append(f"--seed_from_export={seed}")
    return Emulator(command, "Dev App Server is now running", lambda _: f"127.0.0.1:{port}")


def hearth(binary, data, project=PROJECT, seed=None):
    command = [binary, "start", "--port", "0", "--data", data, "--project", project, "--log-level", "error",
               "--rules", "/nonexistent.rules"] + (["--import", seed] if seed else [])
    return Emulator(command, "export FIRESTORE_EMULATOR_HOST=",
                    lambda output: output.split("export FIRESTORE_EMULATOR_HOST=")[1].split()[0])


def export_through_endpoint(address, directory, name):
    """POSTs Google's export request to the emulator at `address`; returns the answer's body."""
    request = urllib.request.Request(
        f"http://{address}/emulator/v1/projects/{PROJECT}:export", method="POST",
        data=json.dumps({"database": f"projects/{PROJECT}/databases/(default)", "export_directory": directory,
                         "export_name": name}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return response.read()


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def dataset(db):
    """(path, fields) of every document to write."""
    deep = {"leaf": 1}
    for _ in range(19):
        deep = {"m": deep}
    when = datetime.datetime(2024, 1, 2, 3, 4, 5, 123456, tzinfo=datetime.timezone.utc)
    docs = [
        ("types/null", {"v": None}),
        ("types/bool", {"t": True, "f": False}),
        ("types/ints", {"zero": 0, "minus": -1, "max": 2**63 - 1, "min": -2**63, "n": 42}),
        ("types/doubles", {"a": 1.5, "nan": math.nan, "pinf": math.inf, "ninf": -math.inf, "nz": -0.0, "z": 0.0,
                           "tiny": 5e-324, "big": 1.7976931348623157e308}),
        ("types/times", {"a": when, "min": datetime.datetime(1, 1, 1, tzinfo=datetime.timezone.utc),
                         "max": datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=datetime.timezone.utc),
                         "before": datetime.datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=datetime.timezone.utc)}),
        ("types/strings", {"u": "héllo 😀 \u0000 \u202e", "e": "", "long": "x" * 5000}),
        ("types/bytes", {"a": b"\x00\x01\xff", "e": b"", "big": bytes(range(256)) * 20}),
        ("types/refs", {"a": db.document("types/other"), "deep": db.document("a/b/c/d"),
                        "num": db.document("types/__id5__")}),
        ("types/geo", {"a": GeoPoint(1.5, -2.25), "z": GeoPoint(-0.0, 0.0), "ends": GeoPoint(-90, 180)}),
        ("types/arrays", {"mixed": [1, "x", None, 2.5, True, {"m": [1, 2]}, b"b", when], "e": [],
                          "maps": [{}, {"e": []}]}),
        ("types/maps", {"a": {"b": {"c": 1}}, "e": {}, "sp.ec ial": {"`q": 1, "é ü": "x"}, "deep": deep}),
        ("types/vectors", {"v": Vector([1.0, -0.0, 3.5]), "in_map": {"v": Vector([0.25])}}),
        ("types/__id7__", {"x": 1}),
        ("types/__id-3__", {"x": 1}),
        ("types/__id9223372036854775807__", {"x": 1}),
        ("types/sp ace%é`.", {"x": 1}),
        ("types/empty", {}),
        ("missing/p/sub/child", {"x": 1}),
        ("types/null/sub/c2", {"x": 1}),
    ]
    rng = random.Random(15)

    def scalar():
        kind = rng.randrange(9)
        if kind == 0:
            return None
        if kind == 1:
            return rng.random() < 0.5
        if kind == 2:
            return rng.randrange(-2**63, 2**63)
        if kind == 3:
            return rng.choice([rng.uniform(-1e9, 1e9), math.nan, -0.0, math.inf])
        if kind == 4:
            return datetime.datetime.fromtimestamp(rng.randrange(-10**10, 10**10) / 10**3, tz=datetime.timezone.utc)
        if kind == 5:
            return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x100, 0x3000)])) for _ in range(rng.randrange(20)))
        if kind == 6:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(10)))
        if kind == 7:
            return db.document(f"random/{rng.randrange(100)}")
        return GeoPoint(rng.uniform(-90, 90), rng.uniform(-180, 180))

    def value(depth):
        kind = rng.randrange(10)
        if kind == 0 and depth < 4:
            return {f"k{i}": value(depth + 1) for i in range(rng.randrange(4))}
        if kind == 1:
            return [scalar() for _ in range(rng.randrange(4))]
        return scalar()

    for i in range(1000):
        docs.append((f"random/{i}", {f"f{j}": value(0) for j in range(rng.randrange(1, 8))}))
    return docs


def canonical(value):
    """A value with its type, exact for doubles (bit patterns) and times (microseconds)."""
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("double", struct.pack(">d", value).hex() if not math.isnan(value) else "nan")
    if isinstance(value, datetime.datetime):
        return ("time", value.isoformat())
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, bytes):
        return ("bytes", value.hex())
    if isinstance(value, GeoPoint):
        return ("geo", struct.pack(">dd", value.latitude, value.longitude).hex())
    if isinstance(value, Vector):
        return ("vector", [canonical(float(element)) for element in value.to_map_value()["value"]])
    if isinstance(value, list):
        return ("array", [canonical(element) for element in value])
    if isinstance(value, dict):
        return ("map", {key: canonical(element) for key, element in value.items()})
    if hasattr(value, "path") and hasattr(value, "collections"):
        return ("reference", value.path)
    raise TypeError(f"unexpected {type(value)}")


def everything(db):
    """Every document of the database, by path: its canonical fields."""
    found = {}

    def walk(collection):
        for reference in collection.list_documents():
            snapshot = reference.get()
            if snapshot.exists:
                found[reference.path] = canonical(snapshot.to_dict())
            for sub in reference.collections():
                walk(sub)

    for collection in db.collections():
        walk(collection)
    return found


def compare(step, actual, expected):
    problems = []
    for path in sorted(set(actual) | set(expected)):
        if path not in actual:
            problems.append(f"{path}: missing")
        elif path not in expected:
            problems.append(f"{path}: unexpected")
        elif actual[path] != expected[path]:
            problems.append(f"{path}: {actual[path]} != {expected[path]}")
    status = "ok" if not problems else "FAILED"
    print(f"{status}: {step} ({len(actual)} documents)")
    for problem in problems[:20]:
        print(f"    {problem}")
    return not problems


def firebase_tools_seed(directory):
    """The file `firebase emulators:start --import DIRECTORY` passes to Google's emulator as
    `--seed_from_export`: DIRECTORY joined with `firestore.metadata_file` from the folder's
    `firebase-export-metadata.json` (firebase-tools' own import, which cannot be installed here)."""
    with open(os.path.join(directory, "firebase-export-metadata.json")) as file:
        metadata = json.load(file)
    seed = os.path.join(os.path.abspath(directory), metadata["firestore"]["metadata_file"])
    if not os.path.isfile(seed):
        raise SystemExit(f"FAILED: firebase-export-metadata.json names {seed}, which does not exist")
    print(f"ok: firebase-export-metadata.json names the export's metadata file ({metadata['firestore']['metadata_file']})")
    return seed


def main():
    binary = sys.argv[1]
    launcher = sys.argv[2] if len(sys.argv) > 2 else next((path for path in LAUNCHERS if os.path.exists(path)), None)
    if not launcher or not os.path.exists(launcher) or not shutil.which("java"):
        print("skipped: Google's Firestore emulator (with java) is not installed; export_roundtrip.py")
        return 0
    work = tempfile.mkdtemp(prefix="hearth-roundtrip-")
    ok = True
    try:
        source = google(launcher)
        try:
            writer = source.client.batch()
            for count, (path, fields) in enumerate(dataset(source.client), 1):
                writer.set(source.client.document(path), fields)
                if count % 400 == 0:
                    writer.commit()
                    writer = source.client.batch()
            writer.commit()
            expected = everything(source.client)
            google_answer = export_through_endpoint(source.address, work, "google_export")
        finally:
            source.stop()

        # 1. Google's export into Hearth.
        run([binary, "import", os.path.join(work, "google_export"), "--data", os.path.join(work, "hearth1"),
             "--project", PROJECT])
        target = hearth(binary, os.path.join(work, "hearth1"))
        try:
            ok &= compare("Google's export imported into Hearth", everything(target.client), expected)
            hearth_answer = export_through_endpoint(target.address, work, "endpoint_export")
            same = hearth_answer == google_answer
            print(f"{'ok' if same else 'FAILED'}: the :export endpoint answers as Google's ({hearth_answer!r})")
            ok &= same
        finally:
            target.stop()

        # 2. Hearth's export into Google's emulator.
        exported = os.path.join(work, "hearth_export")
        run([binary, "export", exported, "--data", os.path.join(work, "hearth1"), "--project", PROJECT])
        seeded = google(launcher, seed=firebase_tools_seed(exported))
        try:
            ok &= compare("Hearth's export seeded into Google's emulator", everything(seeded.client), expected)
            ok &= compare("Google's emulator leaves a named database unseeded",
                          everything(firestore.Client(project=PROJECT, database="other")), {})
        finally:
            seeded.stop()

        # 3. Hearth's export into a fresh Hearth.
        run([binary, "import", exported, "--data", os.path.join(work, "hearth2"), "--project", PROJECT])
        fresh = hearth(binary, os.path.join(work, "hearth2"))
        try:
            ok &= compare("Hearth's export imported into a fresh Hearth", everything(fresh.client), expected)
        finally:
            fresh.stop()

        # 4. An export through Hearth's endpoint into Google's emulator.
        seeded = google(launcher, seed=os.path.join(work, "endpoint_export", "endpoint_export.overall_export_metadata"))
        try:
            ok &= compare("Hearth's :export endpoint seeded into Google's emulator", everything(seeded.client), expected)
        finally:
            seeded.stop()

        # 5. hearth start --import seeds every project on first use.
        seeding = hearth(binary, os.path.join(work, "hearth3"), project="demo-configured",
                         seed=os.path.join(work, "google_export"))
        try:
            ok &= compare("Hearth's start --import seeding another project on first use",
                          everything(seeding.client), expected)
            ok &= compare("Hearth's start --import leaves a named database unseeded, as Google's emulator",
                          everything(firestore.Client(project=PROJECT, database="other")), {})
        finally:
            seeding.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
