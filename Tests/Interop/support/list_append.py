"""A list-append serializability checker in the style of Jepsen's Elle, through the official
google-cloud-firestore client.

Client threads run random transactions over a few groups of keys (fresh groups every two
seconds, so that keys keep being created). Each key is a document
`{"g": group, "items": [...]}`; a transaction reads some keys, or queries a whole group
(`g == G`, a range read that also sees which keys do not exist yet), then appends a unique
value to one or two keys (creating a key is appending its first value). Each append writes the
whole list, so the final list of a key gives the order of its versions, and every observed
list names the version it read.

From the committed transactions' histories the checker builds the dependency graph:
- ww: the appender of a key's i-th value precedes the appender of its (i+1)-th;
- wr: the appender of the last value a transaction saw precedes it;
- rw: a transaction that saw n values of a key (none for a key absent from a group it
  queried) precedes the appender of the (n+1)-th,
and searches it for cycles: G0 (ww only), G1c (ww and wr), G2 (with an anti-dependency, such as
two transactions that each query a group, see nothing of the other's insert, and both commit).
It also checks that every observed list is a prefix of the key's final list and that no value
of a failed transaction was ever written.
"""

import itertools
import random
import threading
import time
from collections import defaultdict

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

GROUPS = 3
KEYS_PER_GROUP = 6
# Every few seconds the transactions move on to fresh groups, so that keys keep being created
# (inserts are where phantoms happen) for the whole run.
GROUP_SECONDS = 2.0


def key_name(group, key):
    return f"g{group}-k{key}"


def group_of(name):
    return int(name.split("-")[0][1:])


class History:
    """The committed transactions: for each, what it read and what it appended."""

    def __init__(self):
        self.lock = threading.Lock()
        self.committed = []  # (reads: {key: list}, appends: {key: value})
        self.failed_values = set()
        self.attempts = 0
        self.failures = 0

    def record(self, reads, appends):
        with self.lock:
            self.committed.append((reads, appends))

    def record_failure(self, values):
        with self.lock:
            self.failures += 1
            self.failed_values.update(values)

    def count_attempt(self):
        with self.lock:
            self.attempts += 1


def run_workload(project, collection_name, threads, seconds, seed=None):
    """Runs the workload; returns (history, final lists by key)."""
    history = History()
    values = itertools.count(1)
    values_lock = threading.Lock()
    started = time.monotonic()
    stop_at = started + seconds

    def next_value():
        with values_lock:
            return next(values)

    def worker(index):
        client = firestore.Client(project=project)
        collection = client.collection(collection_name)
        rng = random.Random((seed or 0) * 1000 + index if seed is not None else None)
        while time.monotonic() < stop_at:
            attempt = {}

            epoch = int((time.monotonic() - started) / GROUP_SECONDS) * GROUPS

            @firestore.transactional
            def body(transaction):
                history.count_attempt()
                reads = {}
                appends = {}
                attempt["appends"] = appends
                attempt.setdefault("all", set())
                if rng.random() < 0.35:
                    group = epoch + rng.randrange(GROUPS)
                    query = collection.where(filter=FieldFilter("g", "==", group))
                    found = {snapshot.id: list(snapshot.get("items")) for snapshot in query.stream(transaction=transaction)}
                    for key in range(KEYS_PER_GROUP):
                        name = key_name(group, key)
                        reads[name] = found.get(name, [])
                    targets = [key_name(group, rng.randrange(KEYS_PER_GROUP))]
                    observed = reads
                else:
                    names = {key_name(epoch + rng.randrange(GROUPS), rng.randrange(KEYS_PER_GROUP))
                             for _ in range(rng.randint(1, 3))}
                    snapshots = list(transaction.get_all([collection.document(name) for name in sorted(names)]))
                    for snapshot in snapshots:
                        reads[snapshot.id] = list(snapshot.get("items")) if snapshot.exists else []
                    targets = rng.sample(sorted(names), min(len(names), rng.randint(1, 2)))
                    observed = reads
                for name in targets:
                    value = next_value()
                    attempt["all"].add(value)
                    appends[name] = value
                    transaction.set(collection.document(name), {"g": group_of(name), "items": observed[name] + [value]})
                attempt["reads"] = reads

            try:
                body(client.transaction(max_attempts=5))
            except Exception:  # noqa: BLE001 - a transaction that never committed
                history.record_failure(attempt.get("all", set()))
                continue
            # Values of the attempts before the committing one were never written.
            committed_values = set(attempt["appends"].values())
            with history.lock:
                history.failed_values.update(attempt["all"] - committed_values)
            history.record(attempt["reads"], attempt["appends"])

    workers = [threading.Thread(target=worker, args=(index,)) for index in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    client = firestore.Client(project=project)
    final = {snapshot.id: list(snapshot.get("items")) for snapshot in client.collection(collection_name).stream()}
    return history, final


def check(history, final):
    """Returns a dict: anomalies found by kind (lists of descriptions), and graph size."""
    anomalies = defaultdict(list)
    writer = {}
    for index, (_, appends) in enumerate(history.committed):
        for name, value in appends.items():
            writer[value] = index
    for name, items in final.items():
        for value in items:
            if value in history.failed_values:
                anomalies["aborted-write-visible"].append(f"{name}: value {value} of a failed transaction")
            elif value not in writer:
                anomalies["unknown-write"].append(f"{name}: value {value}")
        if len(set(items)) != len(items):
            anomalies["duplicate-append"].append(name)
    edges = {"ww": defaultdict(set), "wr": defaultdict(set), "rw": defaultdict(set)}
    for name, items in final.items():
        for earlier, later in zip(items, items[1:]):
            if earlier in writer and later in writer and writer[earlier] != writer[later]:
                edges["ww"][writer[earlier]].add(writer[later])
    for index, (reads, _) in enumerate(history.committed):
        for name, seen in reads.items():
            items = final.get(name, [])
            if seen != items[: len(seen)]:
                anomalies["incompatible-order"].append(f"{name}: saw {seen}, final {items}")
                continue
            if seen and seen[-1] in writer and writer[seen[-1]] != index:
                edges["wr"][writer[seen[-1]]].add(index)
            if len(items) > len(seen) and items[len(seen)] in writer and writer[items[len(seen)]] != index:
                edges["rw"][index].add(writer[items[len(seen)]])
    for kind, included in (("G0", ("ww",)), ("G1c", ("ww", "wr")), ("G2", ("ww", "wr", "rw"))):
        graph = defaultdict(set)
        for name in included:
            for source, targets in edges[name].items():
                graph[source] |= targets
        cycles = cyclic_components(graph, len(history.committed))
        if cycles and not any(anomalies.get(lower) for lower in ("G0", "G1c")):
            anomalies[kind] = [f"{len(component)} transactions in a cycle" for component in cycles]
    return anomalies


def cyclic_components(graph, count):
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index_of = {}
    low = {}
    on_stack = set()
    stack = []
    components = []
    counter = itertools.count()
    for root in range(count):
        if root in index_of:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index_of[root] = low[root] = next(counter)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index_of:
                    index_of[child] = low[child] = next(counter)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index_of[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index_of[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(component)
    return components
