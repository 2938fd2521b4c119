"""Interop tests: the official google-cloud-firestore Python client against a Firestore
emulator (Hearth, or Google's for comparison), reached through FIRESTORE_EMULATOR_HOST.

Covers CRUD, create and update preconditions, every field transform and server timestamps,
write batches, the bulk writer (BatchWrite), batch gets, document listing, reads at a past
read time, the Firestore data types, and named databases.

Run by scripts/test-interop under `hearth exec`; exits 1 if any check fails.
"""

import datetime
import math
import os
import sys
import time
import traceback
import uuid

from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1 import ArrayRemove, ArrayUnion, Increment, Maximum, Minimum
from google.cloud.firestore_v1.field_path import FieldPath

PROJECT = os.environ.get("GCLOUD_PROJECT", "demo-interop")
RUN = uuid.uuid4().hex[:8]
# Google's emulator writes server timestamps with millisecond precision, slightly before the
# commit time; Hearth writes the commit time exactly (see Docs/Compatibility.md).
EXACT_SERVER_TIMESTAMPS = os.environ.get("INTEROP_TARGET", "hearth") == "hearth"
client = firestore.Client(project=PROJECT)
results = []


def check(name):
    """Registers a test function; a failed assert or an exception fails it."""
    def register(function):
        results.append((name, function))
        return function
    return register


def same_instant(server_timestamp, commit_time):
    """Whether a server timestamp is the commit time (within 10 ms on Google's emulator)."""
    if EXACT_SERVER_TIMESTAMPS:
        return server_timestamp == commit_time
    return abs((server_timestamp - commit_time).total_seconds()) < 0.01


def collection(name):
    return client.collection(f"{name}-{RUN}")


@check("set, get, update, delete")
def crud():
    doc = collection("crud").document("alice")
    doc.set({"name": "Alice", "age": 30, "address": {"city": "Paris", "zip": "75001"}})
    snapshot = doc.get()
    assert snapshot.exists
    assert snapshot.to_dict() == {"name": "Alice", "age": 30, "address": {"city": "Paris", "zip": "75001"}}
    assert snapshot.create_time == snapshot.update_time
    doc.update({"age": 31, "address.city": "Lyon", "name": firestore.DELETE_FIELD})
    assert doc.get().to_dict() == {"age": 31, "address": {"city": "Lyon", "zip": "75001"}}
    doc.set({"extra": True}, merge=True)
    assert doc.get().to_dict() == {"age": 31, "address": {"city": "Lyon", "zip": "75001"}, "extra": True}
    doc.delete()
    assert not doc.get().exists
    doc.delete()  # deleting a missing document is no error


@check("create and update preconditions")
def preconditions():
    doc = collection("pre").document("d")
    doc.create({"n": 1})
    try:
        doc.create({"n": 2})
        raise AssertionError("second create succeeded")
    except exceptions.Conflict:
        pass
    try:
        collection("pre").document("missing").update({"n": 1})
        raise AssertionError("update of a missing document succeeded")
    except exceptions.NotFound:
        pass
    snapshot = doc.get()
    doc.update({"n": 2}, option=client.write_option(last_update_time=snapshot.update_time))
    try:
        doc.update({"n": 3}, option=client.write_option(last_update_time=snapshot.update_time))
        raise AssertionError("stale update succeeded")
    except exceptions.FailedPrecondition:
        pass
    try:
        collection("pre").document("missing").delete(option=client.write_option(exists=True))
        raise AssertionError("delete with exists=True of a missing document succeeded")
    except exceptions.NotFound:
        pass
    assert doc.get().get("n") == 2


@check("server timestamps and every transform")
def transforms():
    doc = collection("transforms").document("t")
    result = doc.set({
        "created": firestore.SERVER_TIMESTAMP, "count": 1, "big": 10, "small": 10,
        "tags": ["a", "b"], "nested": {"at": firestore.SERVER_TIMESTAMP},
    })
    snapshot = doc.get()
    assert same_instant(snapshot.get("created"), result.update_time)
    assert same_instant(snapshot.get("nested.at"), result.update_time)
    doc.update({
        "count": Increment(2), "big": Maximum(5), "small": Minimum(5),
        "tags": ArrayUnion(["b", "c"]), "updated": firestore.SERVER_TIMESTAMP,
    })
    data = doc.get().to_dict()
    assert data["count"] == 3 and data["big"] == 10 and data["small"] == 5, data
    assert data["tags"] == ["a", "b", "c"], data
    doc.update({"tags": ArrayRemove(["a"]), "count": Increment(0.5), "fresh": Increment(7)})
    data = doc.get().to_dict()
    assert data["tags"] == ["b", "c"] and data["count"] == 3.5 and data["fresh"] == 7, data


@check("write batches are atomic")
def batches():
    col = collection("batch")
    col.document("keep").set({"v": 0})
    batch = client.batch()
    batch.set(col.document("a"), {"v": 1})
    batch.update(col.document("keep"), {"v": 2})
    batch.delete(col.document("gone"))
    batch.create(col.document("b"), {"v": firestore.SERVER_TIMESTAMP})
    write_results = batch.commit()
    assert len(write_results) == 4
    assert same_instant(col.document("b").get().get("v"), batch.commit_time)
    failing = client.batch()
    failing.set(col.document("c"), {"v": 3})
    failing.create(col.document("a"), {"v": 9})  # already exists: the whole batch fails
    try:
        failing.commit()
        raise AssertionError("batch with a failing create succeeded")
    except exceptions.Conflict:
        pass
    assert not col.document("c").get().exists


@check("batch gets (get_all)")
def batch_gets():
    col = collection("getall")
    col.document("x").set({"a": 1, "b": 2})
    col.document("y").set({"a": 3})
    refs = [col.document("x"), col.document("missing"), col.document("y")]
    snapshots = {s.id: s for s in client.get_all(refs)}
    assert snapshots["x"].to_dict() == {"a": 1, "b": 2}
    assert not snapshots["missing"].exists
    masked = list(client.get_all([col.document("x")], field_paths=["b"]))
    assert masked[0].to_dict() == {"b": 2}


@check("bulk writer (BatchWrite)")
def bulk_writer():
    col = collection("bulk")
    writer = client.bulk_writer()
    for i in range(25):
        writer.set(col.document(f"d{i:02}"), {"i": i})
    writer.close()
    assert len(list(col.list_documents())) == 25
    writer = client.bulk_writer()
    for i in range(25):
        writer.delete(col.document(f"d{i:02}"))
    writer.close()
    assert list(col.list_documents()) == []


@check("add and list documents, missing ones included")
def listing():
    col = collection("list")
    _, ref = col.add({"auto": True})
    assert len(ref.id) == 20
    col.document("parent").collection("children").document("c").set({"x": 1})
    ids = sorted(d.id for d in col.list_documents())
    assert ids == sorted([ref.id, "parent"]), ids
    assert list(col.list_documents(page_size=1))  # pages through
    assert not col.document("parent").get().exists


@check("reads at a past read time")
def read_time():
    doc = collection("readtime").document("d")
    first = doc.set({"v": 1})
    time.sleep(0.01)
    doc.set({"v": 2})
    assert doc.get(read_time=first.update_time).get("v") == 1
    assert doc.get().get("v") == 2


@check("every data type round-trips")
def data_types():
    doc = collection("types").document("all")
    now = datetime.datetime(2024, 5, 1, 12, 30, 15, 123456, tzinfo=datetime.timezone.utc)
    data = {
        "null": None, "bool": True, "int": 2**63 - 1, "negative": -(2**63), "double": 1.5,
        "nan": float("nan"), "inf": float("-inf"), "string": "héllo ✓", "bytes": b"\x00\xff",
        "timestamp": now, "geo": firestore.GeoPoint(48.85, 2.35), "ref": doc,
        "array": [1, "two", None, {"three": 3}], "map": {"deep": {"deeper": [True]}},
        "empty_map": {}, "empty_array": [],
    }
    doc.set(data)
    got = doc.get().to_dict()
    assert math.isnan(got.pop("nan"))
    data.pop("nan")
    assert got.pop("ref").path == doc.path
    data.pop("ref")
    assert got["timestamp"] == now
    assert got == data, got
    doc.update({FieldPath("a.b", "c`d").to_api_repr(): 1})
    assert doc.get().to_dict()["a.b"] == {"c`d": 1}


@check("named databases hold their own data")
def named_databases():
    other = firestore.Client(project=PROJECT, database="interop-named")
    name = f"named-{RUN}/d"
    client.document(name).set({"db": "default"})
    other.document(name).set({"db": "named"})
    assert client.document(name).get().get("db") == "default"
    assert other.document(name).get().get("db") == "named"


def main():
    failures = 0
    for name, function in results:
        try:
            function()
            print(f"ok    {name}")
        except Exception:  # noqa: BLE001 - report every failure and go on
            failures += 1
            print(f"FAIL  {name}")
            traceback.print_exc()
    print(f"interop: {len(results) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
