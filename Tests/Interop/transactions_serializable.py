"""Interop: serializable transactions through the official google-cloud-firestore client.

Each anomaly a pessimistic, serializable Firestore prevents, staged with two open transactions
whose commits overlap (the first commits from a thread, the second 0.3 s later): exactly one
of them commits and the other gets ABORTED. Google's emulator resolves each such deadlock by
its 2 s lock timeout; Hearth at once, aborting the younger transaction. Also: ten threads
claiming one name, ten transactions sharing a read, a plain write into a locked query range,
and queries and aggregations in transactions on a fresh database.

scripts/test-interop runs it against Hearth and, where installed, against Google's emulator;
the expected outcome is the same on both.
"""

import os
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from google.api_core import exceptions  # noqa: E402
from google.cloud import firestore  # noqa: E402
from google.cloud.firestore_v1.base_query import FieldFilter  # noqa: E402
from harness import PROJECT, check, client, collection, run_checks  # noqa: E402


def begin(read_only=False):
    transaction = client.transaction(read_only=read_only)
    transaction._begin()
    return transaction


def commit_overlapping(first, second):
    """Commits `first` from a thread and `second` 0.3 s later; returns each outcome ("ok" or
    "aborted")."""
    outcomes = {}

    def run(label, transaction):
        try:
            transaction._commit()
            outcomes[label] = "ok"
        except exceptions.Aborted:
            outcomes[label] = "aborted"
            try:
                transaction._rollback()
            except Exception:  # noqa: BLE001 - the transaction may already be gone
                pass

    thread = threading.Thread(target=run, args=("first", first))
    thread.start()
    time.sleep(0.3)
    run("second", second)
    thread.join(timeout=30)
    return outcomes["first"], outcomes["second"]


def exactly_one_commits(outcomes):
    assert sorted(outcomes) == ["aborted", "ok"], f"expected one commit and one ABORTED, got {outcomes}"


def users_named(users, name):
    return users.where(filter=FieldFilter("username", "==", name))


@check("lost update: two read-modify-writes of one document, one aborts")
def lost_update():
    counter = collection("serial-lost").document("counter")
    counter.set({"n": 0})
    first, second = begin(), begin()
    for transaction in (first, second):
        n = counter.get(transaction=transaction).get("n")
        transaction.set(counter, {"n": n + 1})
    exactly_one_commits(commit_overlapping(first, second))
    assert counter.get().get("n") == 1


@check("write skew: each reads both documents and writes one, one aborts")
def write_skew():
    doctors = collection("serial-skew")
    alice, bob = doctors.document("alice"), doctors.document("bob")
    alice.set({"onCall": True})
    bob.set({"onCall": True})
    first, second = begin(), begin()
    for transaction, leaving in ((first, alice), (second, bob)):
        on_call = [ref.get(transaction=transaction).get("onCall") for ref in (alice, bob)]
        assert on_call == [True, True]
        transaction.update(leaving, {"onCall": False})
    exactly_one_commits(commit_overlapping(first, second))
    assert [alice.get().get("onCall"), bob.get().get("onCall")].count(True) == 1


@check("phantom insert: both find no user named x and insert one, one aborts")
def phantom_insert():
    users = collection("serial-phantom")
    first, second = begin(), begin()
    for index, transaction in enumerate((first, second)):
        assert list(users_named(users, "x").stream(transaction=transaction)) == []
        transaction.set(users.document(f"u{index}"), {"username": "x"})
    exactly_one_commits(commit_overlapping(first, second))
    assert len(list(users_named(users, "x").stream())) == 1


@check("phantom update: both find no user named x, one inserts, the other renames a user to x; one aborts")
def phantom_update():
    users = collection("serial-move")
    existing = users.document("existing")
    existing.set({"username": "y"})
    first, second = begin(), begin()
    assert list(users_named(users, "x").stream(transaction=first)) == []
    first.set(users.document("new"), {"username": "x"})
    assert list(users_named(users, "x").stream(transaction=second)) == []
    assert existing.get(transaction=second).get("username") == "y"
    second.update(existing, {"username": "x"})
    exactly_one_commits(commit_overlapping(first, second))
    assert len(list(users_named(users, "x").stream())) == 1


@check("count then insert: both count no user named x and insert one, one aborts")
def count_then_insert():
    users = collection("serial-count")
    first, second = begin(), begin()
    for index, transaction in enumerate((first, second)):
        count = users_named(users, "x").count().get(transaction=transaction)[0][0].value
        assert count == 0
        transaction.set(users.document(f"u{index}"), {"username": "x"})
    exactly_one_commits(commit_overlapping(first, second))
    assert users_named(users, "x").count().get()[0][0].value == 1


@check("a plain write into a range a transaction queried waits for its commit, then lands")
def plain_write_waits():
    users = collection("serial-plain")
    transaction = begin()
    assert list(users_named(users, "x").stream(transaction=transaction)) == []
    result = {}

    def write():
        started = time.monotonic()
        result["time"] = users.document("late").set({"username": "x"}).update_time
        result["waited"] = time.monotonic() - started

    thread = threading.Thread(target=write)
    thread.start()
    time.sleep(0.5)
    transaction.set(users.document("claim"), {"username": "claimed"})
    commit_time = transaction._commit()[0].update_time
    thread.join(timeout=30)
    assert result["waited"] >= 0.4, f"the plain write did not wait: {result['waited']:.3f} s"
    assert result["time"] > commit_time, "the plain write landed before the transaction's commit"


@check("ten threads inserting one username if absent leave exactly one document")
def insert_if_absent():
    users = collection("serial-claim")
    errors = []

    def claim(index):
        own = firestore.Client(project=PROJECT)
        own_users = own.collection(users.id)

        @firestore.transactional
        def body(transaction):
            if not list(users_named(own_users, "taken").limit(1).stream(transaction=transaction)):
                transaction.set(own_users.document(f"user{index}"), {"username": "taken"})

        try:
            body(own.transaction(max_attempts=5))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))

    threads = [threading.Thread(target=claim, args=(index,)) for index in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(list(users_named(users, "taken").stream())) == 1, "more than one user claimed the name"


@check("ten transactions reading one shared document and writing their own all commit, none aborted at a read")
def shared_reads():
    settings = collection("serial-shared")
    config = settings.document("config")
    config.set({"limit": 10})
    read_errors = []
    errors = []
    barrier = threading.Barrier(10)

    def work(index):
        own = firestore.Client(project=PROJECT)
        shared = own.collection(settings.id).document("config")
        mine = own.collection(settings.id).document(f"user{index}")
        transaction = own.transaction()
        transaction._begin()
        try:
            limit = shared.get(transaction=transaction).get("limit")
        except Exception as error:  # noqa: BLE001 - a read must not fail
            read_errors.append(repr(error))
            return
        barrier.wait(timeout=30)  # every transaction holds its read before any commits
        transaction.set(mine, {"limit": limit})
        try:
            transaction._commit()
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))

    started = time.monotonic()
    threads = [threading.Thread(target=work, args=(index,)) for index in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    elapsed = time.monotonic() - started
    assert not read_errors, f"reads failed: {read_errors[:2]}"
    assert not errors, f"commits failed: {errors[:2]}"
    assert len([s for s in settings.stream() if s.id.startswith("user")]) == 10
    print(f"      10 shared-read transactions in {elapsed:.2f} s")


@check("queries and aggregations in read-write and read-only transactions work on a fresh database")
def fresh_database():
    fresh = firestore.Client(project=f"demo-fresh-{uuid.uuid4().hex[:8]}")
    items = fresh.collection("items")
    for read_only in (False, True):
        transaction = fresh.transaction(read_only=read_only)
        transaction._begin()
        assert list(items.stream(transaction=transaction)) == []
        assert items.count().get(transaction=transaction)[0][0].value == 0
        transaction._rollback()


if __name__ == "__main__":
    run_checks("interop-transactions-serializable")
