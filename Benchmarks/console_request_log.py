"""The console's request log under load: does it keep up with 1,000 requests per second, and
does watching it slow the server?

It starts one `hearth` (a release build; a fresh data folder), writes one document, then drives
REST document gets at a paced --rate (requests per second, several keep-alive connections) in
alternating phases of --seconds each, --rounds times:
  - closed: nobody watches the request log;
  - open: the console's request log page is open in headless Chromium (when chromium and
    chromedriver are installed; else `--watcher sse` is used) and an SSE client reads
    /ui/api/requests/events, counting the entries it receives.
For each phase kind it prints the p50 and p99 latency of the gets, the achieved rate, and for
the open phases how many of the requests the SSE stream delivered. Then the ratio
p50(open) / p50(closed) against the goal (at most 1.05) and whether every request reached the log.

Usage (see BENCHMARKS.md, "Console"):
    python Benchmarks/console_request_log.py --hearth .build-bench-release/release/hearth
Exit status 0 once measured, also when a goal is missed; 1 if a measurement failed.
"""

import argparse
import http.client
import json
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

PROJECT = "demo-console"
DOCUMENT = f"/v1/projects/{PROJECT}/databases/(default)/documents/bench/doc"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_hearth(binary, data, port):
    process = subprocess.Popen(
        [binary, "start", "--host", "127.0.0.1", "--port", str(port), "--data", data, "--project", PROJECT],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("hearth did not start")


def write_document(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    body = json.dumps({"fields": {"n": {"integerValue": "1"}}})
    connection.request("PATCH", DOCUMENT, body=body,
                       headers={"Authorization": "Bearer owner", "Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        raise RuntimeError(f"write failed: {response.status}")


def drive(port, rate, seconds, connections):
    """Paced gets from `connections` threads; returns (latencies in ms, requests sent)."""
    latencies = []
    lock = threading.Lock()
    interval = connections / rate
    start = time.monotonic() + 0.05

    def worker(offset):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine = []
        next_at = start + offset * interval / connections
        while next_at < start + seconds:
            delay = next_at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            began = time.perf_counter()
            connection.request("GET", DOCUMENT, headers={"Authorization": "Bearer owner"})
            response = connection.getresponse()
            response.read()
            mine.append((time.perf_counter() - began) * 1000)
            next_at += interval
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


class SSECounter:
    """Reads /ui/api/requests/events in a child process (curl), counting `event: request` lines."""

    def __init__(self, port):
        self.process = subprocess.Popen(
            ["curl", "-sN", f"http://127.0.0.1:{port}/ui/api/requests/events"],
            stdout=subprocess.PIPE, text=True)
        self.count = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.process.stdout:
            if line.startswith("event: request"):
                self.count += 1

    def stop(self):
        self.process.terminate()
        self.process.wait()


class BrowserPage:
    """The console's request log page, open in headless Chromium."""

    def __init__(self, port):
        from selenium import webdriver
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(options=options)
        self.driver.get(f"http://127.0.0.1:{port}/ui/firestore/{PROJECT}/(default)/requests")

    def stop(self):
        self.driver.quit()


def browser_available():
    if not shutil.which("chromedriver"):
        return False
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return True


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hearth", required=True)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--watcher", choices=["browser", "sse"], default="browser")
    arguments = parser.parse_args()

    use_browser = arguments.watcher == "browser" and browser_available()
    data = tempfile.mkdtemp(prefix="hearth-console-bench-")
    port = free_port()
    process = start_hearth(arguments.hearth, data, port)
    results = {"closed": [], "open": []}
    sent = {"closed": 0, "open": 0}
    delivered = 0
    try:
        write_document(port)
        drive(port, arguments.rate, 2, arguments.connections)  # warm-up
        for _ in range(arguments.rounds):
            for kind in ["closed", "open"]:
                page = BrowserPage(port) if kind == "open" and use_browser else None
                counter = SSECounter(port) if kind == "open" else None
                if kind == "open":
                    time.sleep(1.0)
                    baseline = counter.count
                latencies = drive(port, arguments.rate, arguments.seconds, arguments.connections)
                results[kind].extend(latencies)
                sent[kind] += len(latencies)
                if counter:
                    time.sleep(1.0)
                    delivered += counter.count - baseline
                    counter.stop()
                if page:
                    page.stop()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait()
        shutil.rmtree(data, ignore_errors=True)

    total = arguments.rounds * arguments.seconds
    print(f"watcher: {'headless Chromium on the request log page + ' if use_browser else ''}an SSE client")
    print(f"{'phase':8} {'requests':>9} {'rate/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
    for kind in ["closed", "open"]:
        values = results[kind]
        print(f"{kind:8} {len(values):9d} {len(values) / total:8.0f} "
              f"{statistics.median(values):8.3f} {percentile(values, 0.99):8.3f}")
    ratio = statistics.median(results["open"]) / statistics.median(results["closed"])
    print(f"p50 open / closed: {ratio:.3f} (goal <= 1.05): {'met' if ratio <= 1.05 else 'missed'}")
    print(f"request log delivered {delivered} of {sent['open']} requests of the open phases "
          f"({'all' if delivered >= sent['open'] else 'some missing'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
