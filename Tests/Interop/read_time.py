"""Interop: reads at a past read time through the official google-cloud-firestore client,
against a Firestore emulator (Hearth, or Google's for comparison).

A set of documents is written, its commit time kept, then changed (an update, a delete, a new
document, a new subcollection); every kind of read at the kept time must see the old state:
document gets, batch gets, queries, aggregations, and document and collection listing. A read
time in the future is refused.

Run by scripts/test-interop under `hearth exec`; exits 1 if any check fails.
"""

import datetime
import os
import sys
import time

from google.api_core import exceptions
from google.cloud.firestore_v1.base_query import FieldFilter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from harness import check, client, collection, run_checks  # noqa: E402

col = collection("past")
batch = client.batch()
for name, value in [("a", 1), ("b", 2), ("c", 3)]:
    batch.set(col.document(name), {"v": value})
batch.commit()
BEFORE = batch.commit_time
time.sleep(0.05)
col.document("a").update({"v": 10})
col.document("b").delete()
col.document("d").set({"v": 4})
col.document("c").collection("later").document("x").set({"v": 5})


@check("document gets and batch gets at a read time")
def gets():
    assert col.document("a").get(read_time=BEFORE).get("v") == 1
    assert col.document("b").get(read_time=BEFORE).exists
    assert not col.document("d").get(read_time=BEFORE).exists
    then = {s.id: (s.to_dict() if s.exists else None)
            for s in client.get_all([col.document(n) for n in "abcd"], read_time=BEFORE)}
    assert then == {"a": {"v": 1}, "b": {"v": 2}, "c": {"v": 3}, "d": None}, then
    assert col.document("a").get().get("v") == 10


@check("queries and aggregations at a read time")
def queries():
    assert [(s.id, s.get("v")) for s in col.order_by("v").stream(read_time=BEFORE)] == [("a", 1), ("b", 2), ("c", 3)]
    assert [s.id for s in col.where(filter=FieldFilter("v", ">", 2)).get(read_time=BEFORE)] == ["c"]
    assert [s.id for s in col.where(filter=FieldFilter("v", ">", 2)).get()] == ["c", "d", "a"]
    assert col.count().get(read_time=BEFORE)[0][0].value == 3
    assert col.sum("v").get(read_time=BEFORE)[0][0].value == 6
    assert col.sum("v").get()[0][0].value == 17


@check("listing at a read time")
def listing():
    assert [d.id for d in col.list_documents(read_time=BEFORE)] == ["a", "b", "c"]
    assert [d.id for d in col.list_documents()] == ["a", "c", "d"]
    assert [c.id for c in col.document("c").collections(read_time=BEFORE)] == []
    assert [c.id for c in col.document("c").collections()] == ["later"]


@check("a read time in the future is refused")
def future():
    tomorrow = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    try:
        col.document("a").get(read_time=tomorrow)
        raise AssertionError("a read in the future succeeded")
    except exceptions.InvalidArgument:
        pass


run_checks("interop-read-time")
