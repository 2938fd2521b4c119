"""Interop tests: snapshot listeners (on_snapshot) of the official google-cloud-firestore Python
client against a Firestore emulator (Hearth, or Google's for comparison), reached through
FIRESTORE_EMULATOR_HOST.

Covers document, query and collection-group listeners: the initial snapshot, added, modified
and removed changes (a deleted document and one that no longer matches), several listeners at
once, and unsubscribing.

Run by scripts/test-interop under `hearth exec`; exits 1 if any check fails.
"""

import os
import queue
import sys

from google.cloud import firestore

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from harness import RUN, check, client, collection, run_checks  # noqa: E402

# How long to wait for a snapshot the test expects (generous: a loaded machine, Google's
# emulator's JVM), and for one it expects not to come.
SNAPSHOT_TIMEOUT = 30
QUIET_PERIOD = 1.0


class Snapshots:
    """Records a listener's snapshots; `next()` waits for the next one."""

    def __init__(self):
        self.snapshots = queue.Queue()

    def __call__(self, docs, changes, read_time):
        self.snapshots.put((docs, changes, read_time))

    def next(self):
        try:
            return self.snapshots.get(timeout=SNAPSHOT_TIMEOUT)
        except queue.Empty:
            raise AssertionError(f"no snapshot within {SNAPSHOT_TIMEOUT} s") from None

    def expect_none(self):
        try:
            snapshot = self.snapshots.get(timeout=QUIET_PERIOD)
        except queue.Empty:
            return
        raise AssertionError(f"unexpected snapshot {snapshot}")


def ids(docs):
    """The ids of a snapshot's documents, sorted: the client's own ordering of listener
    results and its change indexes do not follow the query's order (the same against either
    emulator), so the checks compare sets."""
    return sorted(doc.id for doc in docs)


def kinds(changes):
    return sorted((change.type.name, change.document.id) for change in changes)


@check("document listener: initial state, create, update, delete, unsubscribe")
def document_listener():
    doc = collection("docwatch").document("d")
    snapshots = Snapshots()
    watch = doc.on_snapshot(snapshots)
    try:
        docs, _, first_read_time = snapshots.next()
        assert docs == []  # the client reports a missing document as no document
        doc.set({"n": 1})
        docs, _, read_time = snapshots.next()
        assert docs[0].exists and docs[0].to_dict() == {"n": 1}
        assert read_time >= first_read_time
        doc.update({"n": 2})
        docs, _, later = snapshots.next()
        assert docs[0].to_dict() == {"n": 2}
        assert later >= read_time
        assert docs[0].update_time > docs[0].create_time
        doc.delete()
        docs, _, _ = snapshots.next()
        assert docs == []
    finally:
        watch.unsubscribe()
    doc.set({"n": 3})
    snapshots.expect_none()


@check("query listener: added, modified, removed (deleted or no longer matching)")
def query_listener():
    cities = collection("querywatch")
    cities.document("a").set({"big": True, "pop": 3})
    cities.document("b").set({"big": False, "pop": 2})
    snapshots = Snapshots()
    watch = cities.where(filter=firestore.FieldFilter("big", "==", True)).order_by("pop").on_snapshot(snapshots)
    try:
        docs, changes, _ = snapshots.next()
        assert ids(docs) == ["a"]
        assert kinds(changes) == [("ADDED", "a")]
        cities.document("b").update({"big": True})
        docs, changes, _ = snapshots.next()
        assert ids(docs) == ["a", "b"]
        assert kinds(changes) == [("ADDED", "b")]
        cities.document("a").update({"pop": 1})
        docs, changes, _ = snapshots.next()
        assert ids(docs) == ["a", "b"]
        assert kinds(changes) == [("MODIFIED", "a")]
        assert [doc.to_dict() for doc in docs if doc.id == "a"] == [{"big": True, "pop": 1}]
        cities.document("a").update({"big": False})
        docs, changes, _ = snapshots.next()
        assert ids(docs) == ["b"]
        assert kinds(changes) == [("REMOVED", "a")]
        cities.document("b").delete()
        docs, changes, _ = snapshots.next()
        assert docs == []
        assert kinds(changes) == [("REMOVED", "b")]
    finally:
        watch.unsubscribe()


@check("query listener with a limit: the window shifts")
def limit_listener():
    scores = collection("limitwatch")
    for name, score in [("a", 10), ("b", 20), ("c", 30)]:
        scores.document(name).set({"score": score})
    snapshots = Snapshots()
    watch = scores.order_by("score", direction=firestore.Query.DESCENDING).limit(2).on_snapshot(snapshots)
    try:
        docs, _, _ = snapshots.next()
        assert ids(docs) == ["b", "c"]
        scores.document("d").set({"score": 25})
        docs, changes, _ = snapshots.next()
        assert ids(docs) == ["c", "d"]
        assert kinds(changes) == [("ADDED", "d"), ("REMOVED", "b")]
    finally:
        watch.unsubscribe()


@check("collection group listener: every collection of the group")
def collection_group_listener():
    group = f"groupwatch-{RUN}"
    client.collection(group).document("top").set({"n": 1})
    client.document(f"users-{RUN}/u1/{group}/nested").set({"n": 2})
    client.document(f"users-{RUN}/u1/other-{RUN}/x").set({"n": 3})
    snapshots = Snapshots()
    watch = client.collection_group(group).on_snapshot(snapshots)
    try:
        docs, _, _ = snapshots.next()
        assert ids(docs) == ["nested", "top"]
        client.document(f"a-{RUN}/b/c-{RUN}/d/{group}/deep").set({"n": 4})
        docs, changes, _ = snapshots.next()
        assert kinds(changes) == [("ADDED", "deep")]
        assert ids(docs) == ["deep", "nested", "top"]
        client.document(f"users-{RUN}/u1/{group}/nested").delete()
        docs, changes, _ = snapshots.next()
        assert kinds(changes) == [("REMOVED", "nested")]
    finally:
        watch.unsubscribe()


@check("several listeners at once, one unsubscribed")
def several_listeners():
    items = collection("manywatch")
    first, second = Snapshots(), Snapshots()
    watch_first = items.on_snapshot(first)
    watch_second = items.document("x").on_snapshot(second)
    try:
        assert first.next()[0] == []
        assert second.next()[0] == []
        items.document("x").set({"n": 1})
        assert ids(first.next()[0]) == ["x"]
        assert second.next()[0][0].to_dict() == {"n": 1}
        watch_first.unsubscribe()
        items.document("x").set({"n": 2})
        assert second.next()[0][0].to_dict() == {"n": 2}
        first.expect_none()
    finally:
        watch_first.unsubscribe()
        watch_second.unsubscribe()


run_checks("interop-listeners")
