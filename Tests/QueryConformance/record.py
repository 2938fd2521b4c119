#!/usr/bin/env python3
"""Record Google's Firestore emulator's answers to the generated query cases.

Usage:
    record.py [--seeds 1,2,3] [--queries N] [--out-dir DIR] [--emulator HOST:PORT] [FILE ...]

    --seeds LIST       generate these seeds (generate.py) and record them into
                       DIR/seed-<n>.json (default: the fixed set, seeds 1-6, into cases/).
    --queries N        queries per seed (default 100).
    FILE ...           re-record existing case files in place instead (their dataset and
                       queries are kept, only the results are replaced).
    --emulator H:P     use an emulator that is already running. Without it, the script starts
                       Google's emulator on a free port of 127.0.0.1 and stops it at exit.

Queries go through the official `google-cloud-firestore` client: its GAPIC `FirestoreClient`
(`RunQuery`, `RunAggregationQuery`, `Commit`) over an insecure gRPC channel to the emulator, with
each request built from the case's proto3 JSON (`google.protobuf.json_format`), so invalid
queries reach the emulator unchanged. If that package is missing, the script creates the venv
`.venv-conformance` at the repository root, installs it there and runs itself again with it.

Exit status: 0 when recorded; 3 when Google's emulator is not installed (with a message).
"""

import argparse
import atexit
import base64
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CASES_DIR = os.path.join(HERE, "cases")
VENV = os.path.join(REPO, ".venv-conformance")
FIXED_SEEDS = [1, 2, 3, 4, 5, 6]
EMULATOR_CANDIDATES = [
    os.environ.get("FIRESTORE_EMULATOR_BINARY", ""),
    "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
    "/usr/share/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
    "/opt/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
]
STARTUP_TIMEOUT = 90     # seconds to wait for the emulator to answer `Ok`
RPC_TIMEOUT = 60         # seconds for one RPC
EMULATOR_MISSING = 3     # exit status when Google's emulator is not installed

sys.path.insert(0, HERE)
import generate  # noqa: E402


# ---------------------------------------------------------------------------------------------
# Python environment: the official client, in a venv of our own when it is not installed.


def have_client():
    try:
        import google.cloud.firestore_v1  # noqa: F401
        import grpc  # noqa: F401
        return True
    except ImportError:
        return False


def ensure_client():
    """Re-executes this script with a Python that has google-cloud-firestore, creating the
    repository's `.venv-conformance` (and installing the package into it) when needed."""
    if have_client():
        return
    python = os.path.join(VENV, "bin", "python")
    if os.environ.get("QUERY_DIFF_REEXEC") == "1":
        sys.exit("error: google-cloud-firestore is still not importable with %s" % sys.executable)
    if not os.path.exists(python):
        print("creating %s ..." % VENV, file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    check = subprocess.run([python, "-c", "import google.cloud.firestore_v1, grpc"], capture_output=True)
    if check.returncode != 0:
        print("installing google-cloud-firestore into %s ..." % VENV, file=sys.stderr)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "google-cloud-firestore"], check=True)
    env = dict(os.environ, QUERY_DIFF_REEXEC="1")
    os.execve(python, [python] + sys.argv, env)


# ---------------------------------------------------------------------------------------------
# Google's emulator


def find_emulator():
    for candidate in EMULATOR_CANDIDATES:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("cloud_firestore_emulator")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Emulator:
    """Google's emulator: one already running at `host_port`, or one this process starts."""

    def __init__(self, host_port=None):
        self.process = None
        self.host_port = host_port

    def start(self):
        if self.host_port:
            self.wait_ready(timeout=10)
            return
        binary = find_emulator()
        if binary is None:
            raise FileNotFoundError("Google's Firestore emulator (cloud_firestore_emulator) is not installed")
        port = free_port()
        self.host_port = "127.0.0.1:%d" % port
        self.log = open(os.path.join(os.environ.get("TMPDIR", "/tmp"), "query-diff-emulator-%d.log" % port), "w")
        self.process = subprocess.Popen(
            [binary, "--host", "127.0.0.1", "--port", str(port)],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        atexit.register(self.stop)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: sys.exit(130))
        self.wait_ready(timeout=STARTUP_TIMEOUT)

    def wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError("Google's emulator exited with status %d" % self.process.returncode)
            try:
                with urllib.request.urlopen("http://%s/" % self.host_port, timeout=2) as response:
                    if response.read().strip() == b"Ok":
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.5)
        raise TimeoutError("the emulator at %s did not answer within %d s" % (self.host_port, timeout))

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)   # the script and its java child
            self.process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process = None

    def clear(self, project, database):
        url = "http://%s/emulator/v1/projects/%s/databases/%s/documents" % (self.host_port, project, database)
        request = urllib.request.Request(url, method="DELETE")
        with urllib.request.urlopen(request, timeout=RPC_TIMEOUT) as response:
            response.read()


# ---------------------------------------------------------------------------------------------
# Running cases through the official client


class Runner:
    def __init__(self, emulator):
        import grpc
        from google.cloud.firestore_v1.services.firestore import FirestoreClient
        from google.cloud.firestore_v1.services.firestore.transports.grpc import FirestoreGrpcTransport
        from google.cloud.firestore_v1 import types
        from google.protobuf import json_format
        from google.api_core import exceptions

        self.emulator = emulator
        self.types = types
        self.json_format = json_format
        self.exceptions = exceptions
        channel = grpc.insecure_channel(emulator.host_port, options=[
            ("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)])
        self.client = FirestoreClient(transport=FirestoreGrpcTransport(channel=channel))
        self.metadata = [("authorization", "Bearer owner")]

    def parse(self, message_type, body):
        return self.json_format.ParseDict(body, message_type.pb(message_type()))

    def seed(self, case):
        project, database = case["project"], case["database"]
        self.emulator.clear(project, database)
        db = "projects/%s/databases/%s" % (project, database)
        root = db + "/documents"
        documents = case["documents"]
        for start in range(0, len(documents), 200):
            writes = [{"update": {"name": root + "/" + d["path"], "fields": d["fields"]}}
                      for d in documents[start:start + 200]]
            request = self.parse(self.types.CommitRequest, {"database": db, "writes": writes})
            self.client.commit(request=request, metadata=self.metadata, timeout=RPC_TIMEOUT)

    def run(self, case, query):
        """The emulator's result for one query, in the case format."""
        root = "projects/%s/databases/%s/documents" % (case["project"], case["database"])
        parent = root + ("/" + query["parent"] if query["parent"] else "")
        try:
            if "structuredAggregationQuery" in query:
                request = self.parse(self.types.RunAggregationQueryRequest, {
                    "parent": parent, "structuredAggregationQuery": query["structuredAggregationQuery"]})
                fields = None
                for response in self.client.run_aggregation_query(
                        request=request, metadata=self.metadata, timeout=RPC_TIMEOUT):
                    if "result" in response:
                        message = self.json_format.MessageToDict(self.types.AggregationResult.pb(response.result))
                        fields = message.get("aggregateFields", {})
                return {"aggregation": normalize_rest(fields or {})}
            request = self.parse(self.types.RunQueryRequest, {"parent": parent,
                                                              "structuredQuery": query["structuredQuery"]})
            names, projected = [], []
            for response in self.client.run_query(request=request, metadata=self.metadata, timeout=RPC_TIMEOUT):
                if "document" not in response:
                    continue
                document = self.json_format.MessageToDict(self.types.Document.pb(response.document))
                names.append(relative_name(document["name"], root))
                projected.append(normalize_rest(document.get("fields", {})))
            if query.get("limitToLast"):
                names.reverse()
                projected.reverse()
            result = {"documents": names}
            if "select" in query["structuredQuery"]:
                result["fields"] = projected
            return result
        except self.exceptions.GoogleAPICallError as error:
            code = error.grpc_status_code.name if error.grpc_status_code is not None else str(error.code)
            return {"error": {"code": code, "message": error.message}}


def relative_name(name, root):
    return name[len(root) + 1:] if name.startswith(root + "/") else name


def normalize_rest(value):
    """REST JSON as MessageToDict writes it, with members in a stable order."""
    if isinstance(value, dict):
        return {k: normalize_rest(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [normalize_rest(v) for v in value]
    return value


def record_case(runner, case):
    runner.seed(case)
    for query in case["queries"]:
        query["expected"] = runner.run(case, query)
    return case


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        part = part.strip()
        if "-" in part[1:]:
            low, high = part.split("-", 1) if not part.startswith("-") else (part, part)
            seeds.extend(range(int(low), int(high) + 1))
        elif part:
            seeds.append(int(part))
    if not seeds or len(seeds) > 10000:
        raise argparse.ArgumentTypeError("give between 1 and 10000 seeds")
    return seeds


def record_seeds(emulator, seeds, query_count, out_dir, quiet=False):
    """Generates and records each seed into out_dir/seed-<n>.json; returns the paths."""
    runner = Runner(emulator)
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for seed in seeds:
        case = generate.generate(seed, query_count)
        started = time.monotonic()
        record_case(runner, case)
        path = os.path.join(out_dir, "seed-%d.json" % seed)
        with open(path, "w", encoding="utf-8") as f:
            f.write(generate.dumps_case(case))
        paths.append(path)
        if not quiet:
            errors = sum(1 for q in case["queries"] if "error" in q["expected"])
            print("recorded %s: %d documents, %d queries (%d refused) in %.1f s" % (
                os.path.relpath(path), len(case["documents"]), len(case["queries"]), errors,
                time.monotonic() - started))
    return paths


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=parse_seeds, default=FIXED_SEEDS)
    parser.add_argument("--queries", type=int, default=generate.DEFAULT_QUERIES)
    parser.add_argument("--out-dir", default=CASES_DIR)
    parser.add_argument("--emulator", metavar="HOST:PORT")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if not 1 <= args.queries <= 100000:
        parser.error("--queries must be between 1 and 100000")
    if not args.emulator and find_emulator() is None:
        print("record: Google's Firestore emulator (cloud_firestore_emulator) is not installed; nothing recorded")
        sys.exit(EMULATOR_MISSING)
    ensure_client()
    emulator = Emulator(args.emulator)
    emulator.start()
    if args.files:
        runner = Runner(emulator)
        for path in args.files:
            with open(path, encoding="utf-8") as f:
                case = json.load(f)
            record_case(runner, case)
            with open(path, "w", encoding="utf-8") as f:
                f.write(generate.dumps_case(case))
            print("re-recorded %s" % path)
    else:
        record_seeds(emulator, args.seeds, args.queries, args.out_dir)


if __name__ == "__main__":
    main()
