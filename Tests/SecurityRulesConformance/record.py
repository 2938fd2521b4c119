#!/usr/bin/env python3
"""Record or check the security-rules conformance cases against Google's Firestore emulator.

Usage:
    record.py [--check | --write] [--emulator HOST:PORT] [--filter TEXT] [--ignore-messages]
              [--verbose] [FILE ...]

    --check (default)  replay every case in cases/*.json and compare the emulator's verdict,
                       HTTP status and denial message with `expected`; prints
                       `rules-conformance: N passed, N failed` and exits 1 on any mismatch.
    --write            replay every case and write the observed result into `expected`.
    --emulator H:P     use an emulator that is already running instead of starting one.
    --filter TEXT      only the cases whose name contains TEXT.
    --ignore-messages  compare only verdict and status, not the denial message.
    FILE ...           only these case files (default: cases/*.json next to this script).

Without --emulator, the script starts Google's emulator on a free port of 127.0.0.1 and stops it
at exit. If the emulator is not installed, it says so, prints `skipped` and exits 0.

Standard library only.
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
import tempfile
import time
import urllib.error
import urllib.request

PROJECT = "demo-rules-conformance"
HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")
EMULATOR_CANDIDATES = [
    os.environ.get("FIRESTORE_EMULATOR_BINARY", ""),
    "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
    "/usr/share/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
    "/opt/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
]
HTTP_TIMEOUT = 30          # seconds for one HTTP request
STARTUP_TIMEOUT = 90       # seconds to wait for the emulator to answer `Ok`
STARTUP_ATTEMPTS = 3       # a start that fails (e.g. the port was taken meanwhile) is retried
MAX_CASES = 100000         # bound on the number of cases in one run

# Firebase's usual claims, fixed so that every run sends the same token. The emulator does not
# check `exp`; the values are what `request.auth.token.iat` etc. read in the rules.
DEFAULT_IAT = 1700000000
DEFAULT_CLAIMS = {
    "iat": DEFAULT_IAT,
    "exp": DEFAULT_IAT + 3600,
    "auth_time": DEFAULT_IAT,
    "firebase": {"sign_in_provider": "custom"},
}


# ---------------------------------------------------------------------------------------------
# Emulator process


class Emulator:
    def __init__(self, host_port=None):
        self.process = None
        self.log = None
        if host_port:
            self.base = "http://" + host_port
        else:
            self.base = None

    @staticmethod
    def find_binary():
        for candidate in EMULATOR_CANDIDATES:
            if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
        found = shutil.which("cloud_firestore_emulator")
        return found

    def start(self):
        """Starts the emulator; False when it is not installed. Exits on a failed start."""
        binary = self.find_binary()
        if binary is None:
            return False
        if shutil.which(os.environ.get("JAVA", "java")) is None:
            return False
        atexit.register(self.stop)
        for attempt in range(STARTUP_ATTEMPTS):
            if self.start_once(binary):
                return True
            self.stop(keep_log=True)
        raise SystemExit("rules-conformance: the emulator did not start (see %s)" % self.log.name)

    def start_once(self, binary):
        port = free_port()   # another process may take it before the emulator does: retried
        self.log = tempfile.NamedTemporaryFile(
            "w", prefix="rules-conformance-emulator-%d-" % port, suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [binary, "--host", "127.0.0.1", "--port", str(port)],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        self.base = "http://127.0.0.1:%d" % port
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(self.base + "/", timeout=2) as answer:
                    if answer.read().decode().strip() == "Ok":
                        return True
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.25)
        return False

    def stop(self, keep_log=False):
        if self.process is None:
            return
        process, self.process = self.process, None
        if process.poll() is None:
            try:
                # The emulator is a shell script running java: stop the whole group we created.
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait(timeout=10)
        if self.log:
            self.log.close()
            if not keep_log:
                try:
                    os.unlink(self.log.name)
                except OSError:
                    pass


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------------------------
# HTTP


def http(method, url, body=None, token=None):
    """Returns (status, parsed JSON or text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text) if text.strip() else None
    except ValueError:
        return status, text


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def user_token(auth):
    """An unsigned JWT (alg none) for the case's `request.auth`; None when unauthenticated."""
    if auth is None:
        return None
    claims = dict(DEFAULT_CLAIMS)
    uid = auth.get("uid")
    if uid is not None:
        claims["sub"] = uid
        claims["user_id"] = uid
    claims.update(auth.get("token") or {})
    header = b64url(json.dumps({"alg": "none", "typ": "JWT"}, separators=(",", ":")).encode())
    payload = b64url(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
    return header + "." + payload + "."


# ---------------------------------------------------------------------------------------------
# Running a case


class Runner:
    def __init__(self, base):
        self.base = base
        self.root = "projects/%s/databases/(default)/documents" % PROJECT
        self.docs_url = "%s/v1/%s" % (base, self.root)
        self.last_rules = None
        self.warnings = []

    def full_name(self, relative):
        return self.root + ("/" + relative if relative else "")

    def load_rules(self, source):
        status, answer = http(
            "PUT", "%s/emulator/v1/projects/%s:securityRules" % (self.base, PROJECT),
            {"rules": {"files": [{"name": "firestore.rules", "content": source}]}})
        if status != 200:
            raise CaseError("the rules do not load: HTTP %d %s" % (status, json.dumps(answer)))
        # Syntax errors answer 400; other issues come back in a 200 answer's `issues`. An ERROR
        # means the rules were not loaded; WARNINGs (e.g. "not comparable") leave them loaded.
        issues = (answer or {}).get("issues") if isinstance(answer, dict) else None
        issues = issues or []
        errors = [i for i in issues if i.get("severity") != "WARNING"]
        if errors:
            raise CaseError("the rules do not load: %s" % json.dumps(errors))
        return [i.get("description", "") for i in issues]

    def clear(self):
        status, answer = http(
            "DELETE", "%s/emulator/v1/projects/%s/databases/(default)/documents"
            % (self.base, PROJECT))
        if status != 200:
            raise CaseError("clearing failed: HTTP %d %s" % (status, answer))

    def seed(self, documents):
        if not documents:
            return
        writes = [{"update": {"name": self.full_name(path), "fields": fields}}
                  for path, fields in sorted(documents.items())]
        status, answer = http("POST", self.docs_url + ":commit", {"writes": writes}, "owner")
        if status != 200:
            raise CaseError("seeding failed: HTTP %d %s" % (status, json.dumps(answer)))

    def prefix_write(self, write):
        write = json.loads(json.dumps(write))
        if "update" in write and "name" in write["update"]:
            write["update"]["name"] = self.full_name(write["update"]["name"])
        if "delete" in write:
            write["delete"] = self.full_name(write["delete"])
        if "transform" in write and "document" in write["transform"]:
            write["transform"]["document"] = self.full_name(write["transform"]["document"])
        return write

    def perform(self, request):
        token = user_token(request.get("auth"))
        kind = request.get("kind")
        if kind == "get":
            return http("GET", self.docs_url + "/" + request["path"], None, token)
        if kind == "commit":
            body = {"writes": [self.prefix_write(w) for w in request["writes"]]}
            return http("POST", self.docs_url + ":commit", body, token)
        if kind == "query":
            parent = request.get("parent", "")
            url = self.docs_url + ("/" + parent if parent else "") + ":runQuery"
            return http("POST", url, {"structuredQuery": request["structuredQuery"]}, token)
        raise CaseError("unknown request kind %r" % kind)

    def run(self, case):
        self.clear()
        if case["rules"] != self.last_rules:
            self.last_rules = None
            self.warnings = self.load_rules(case["rules"])
            self.last_rules = case["rules"]
        self.seed(case.get("documents") or {})
        status, answer = self.perform(case["request"])
        return observed_result(status, answer)


class CaseError(Exception):
    pass


def error_of(answer):
    """The `error` object of an answer, also when :runQuery streams it inside an array."""
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        return answer["error"]
    if isinstance(answer, list):
        for item in answer:
            if isinstance(item, dict) and isinstance(item.get("error"), dict):
                return item["error"]
    return None


def observed_result(status, answer):
    error = error_of(answer)
    denied = error is not None and error.get("status") == "PERMISSION_DENIED"
    result = {"verdict": "deny" if denied else "allow", "status": status}
    if error is not None and error.get("message") is not None:
        result["message"] = error["message"]
    return result


# ---------------------------------------------------------------------------------------------
# Main


def load_case_files(paths):
    files = []
    for path in paths:
        with open(path) as f:
            cases = json.load(f)
        if not isinstance(cases, list):
            raise SystemExit("rules-conformance: %s is not a JSON array of cases" % path)
        files.append((path, cases))
    return files


def write_case_file(path, cases):
    with open(path, "w") as f:
        f.write(dump_cases(cases))


def dump_cases(cases):
    """The case files' formatting (generate.py uses it too): one key of a case per line, its
    value as compact one-line JSON."""
    blocks = []
    for case in cases:
        lines = ["    %s: %s" % (json.dumps(key), json.dumps(value, ensure_ascii=False))
                 for key, value in case.items()]
        blocks.append("  {\n" + ",\n".join(lines) + "\n  }")
    return "[\n" + ",\n".join(blocks) + "\n]\n"


def same_result(expected, observed, ignore_messages=False):
    if not isinstance(expected, dict):
        return False
    for key in ("verdict", "status") if ignore_messages else ("verdict", "status", "message"):
        if expected.get(key) != observed.get(key):
            return False
    return True


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with `expected` (default)")
    mode.add_argument("--write", action="store_true", help="write observed results into `expected`")
    parser.add_argument("--emulator", metavar="HOST:PORT", help="use a running emulator")
    parser.add_argument("--filter", metavar="TEXT", help="only cases whose name contains TEXT")
    parser.add_argument("--ignore-messages", action="store_true",
                        help="compare only verdict and status (e.g. with another emulator version)")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every case")
    parser.add_argument("files", nargs="*", help="case files (default: cases/*.json)")
    args = parser.parse_args(argv)

    paths = args.files or sorted(glob.glob(os.path.join(CASES_DIR, "*.json")))
    files = load_case_files(paths)

    emulator = Emulator(args.emulator)
    # Stop the emulator we started also when we are terminated.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
    if not args.emulator:
        if not emulator.start():
            print("rules-conformance: Google's Firestore emulator (cloud_firestore_emulator, with "
                  "java) is not installed; install it with `gcloud components install "
                  "cloud-firestore-emulator` to record or check the cases.")
            print("rules-conformance: skipped")
            return 0

    runner = Runner(emulator.base)
    passed = failed = broken = 0
    count = 0
    try:
        for path, cases in files:
            changed = False
            for case in cases:
                count += 1
                if count > MAX_CASES:
                    raise SystemExit("rules-conformance: more than %d cases" % MAX_CASES)
                name = case.get("name", "?")
                if args.filter and args.filter not in name:
                    continue
                try:
                    observed = runner.run(case)
                except CaseError as error:
                    broken += 1
                    print("BROKEN %s: %s" % (name, error))
                    continue
                if args.verbose and runner.warnings:
                    print("      warnings for %s: %s" % (name, "; ".join(runner.warnings)))
                if args.write:
                    if case.get("expected") != observed:
                        case["expected"] = observed
                        changed = True
                    if args.verbose:
                        print("%-5s %d %s" % (observed["verdict"], observed["status"], name))
                    passed += 1
                elif same_result(case.get("expected"), observed, args.ignore_messages):
                    passed += 1
                    if args.verbose:
                        print("ok    %s" % name)
                else:
                    failed += 1
                    print("FAIL  %s\n      expected %s\n      observed %s"
                          % (name, json.dumps(case.get("expected")), json.dumps(observed)))
            if args.write and changed:
                write_case_file(path, cases)
    finally:
        emulator.stop()

    if args.write:
        print("rules-conformance: %d recorded, %d broken" % (passed, broken))
        return 1 if broken else 0
    failed += broken
    print("rules-conformance: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
