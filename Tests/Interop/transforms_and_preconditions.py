"""Interop: every field transform at its edges, server timestamps, field deletes, and create,
update and delete preconditions through the official google-cloud-firestore client, against a
Firestore emulator (Hearth, or Google's for comparison).

crud_and_batches.py checks each transform once on the common path; this script checks each
against missing fields, values of other types, mixed integers and doubles, the 64-bit bounds,
duplicates, merges, batches and transactions.

Run by scripts/test-interop under `hearth exec`; exits 1 if any check fails.
"""

import datetime
import math
import os
import sys

from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1 import ArrayRemove, ArrayUnion, Increment, Maximum, Minimum

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from harness import check, client, collection, run_checks  # noqa: E402

# Google's emulator writes server timestamps with millisecond precision, slightly before the
# commit time; Hearth writes the commit time exactly (see Docs/Compatibility.md).
EXACT_SERVER_TIMESTAMPS = os.environ.get("INTEROP_TARGET", "hearth") == "hearth"
docs = collection("transforms")
INT64_MAX, INT64_MIN = 2**63 - 1, -(2**63)


def same_instant(server_timestamp, commit_time):
    if EXACT_SERVER_TIMESTAMPS:
        return server_timestamp == commit_time
    return abs((server_timestamp - commit_time).total_seconds()) < 0.01


def after(name, initial, transform):
    """The document's data after `update(transform)` of a document holding `initial`."""
    doc = docs.document(name)
    doc.set(initial)
    doc.update(transform)
    return doc.get().to_dict()


@check("increment: missing fields, other types, doubles and the 64-bit bounds")
def increment():
    assert after("inc1", {"n": 1}, {"n": Increment(2), "fresh": Increment(5)}) == {"n": 3, "fresh": 5}
    assert after("inc2", {"n": "text"}, {"n": Increment(2)}) == {"n": 2}
    data = after("inc3", {"n": 1}, {"n": Increment(0.5)})
    assert data == {"n": 1.5} and isinstance(data["n"], float)
    data = after("inc4", {"n": 1.5}, {"n": Increment(1)})
    assert data == {"n": 2.5} and isinstance(data["n"], float)
    assert after("inc5", {"n": INT64_MAX}, {"n": Increment(10)}) == {"n": INT64_MAX}
    assert after("inc6", {"n": INT64_MIN}, {"n": Increment(-10)}) == {"n": INT64_MIN}
    assert math.isnan(after("inc7", {"n": float("nan")}, {"n": Increment(1)})["n"])
    assert after("inc8", {"m": {"k": 1}}, {"m.k": Increment(1)}) == {"m": {"k": 2}}


@check("maximum and minimum: missing fields, other types, ties and NaN")
def maximum_minimum():
    assert after("max1", {"n": 1}, {"n": Maximum(5), "m": Minimum(5), "x": Maximum(-1)}) == {"n": 5, "m": 5, "x": -1}
    assert after("max2", {"n": "text", "m": None}, {"n": Maximum(3), "m": Minimum(3)}) == {"n": 3, "m": 3}
    data = after("max3", {"n": 2, "m": 2.0}, {"n": Maximum(2.0), "m": Minimum(2)})
    assert isinstance(data["n"], int) and isinstance(data["m"], float), data  # ties keep the stored value
    data = after("max4", {"n": 1, "m": 10}, {"n": Maximum(1.5), "m": Minimum(-0.5)})
    assert data == {"n": 1.5, "m": -0.5}, data
    data = after("max5", {"n": float("nan"), "m": 1}, {"n": Maximum(1), "m": Minimum(float("nan"))})
    assert math.isnan(data["n"]) and math.isnan(data["m"]), data


@check("array union and remove: missing fields, other types, duplicates and equal numbers")
def arrays():
    assert after("arr1", {"a": [1, 1, 2]}, {"a": ArrayUnion([2, 3, 3])}) == {"a": [1, 1, 2, 3]}
    assert after("arr2", {"a": "text"}, {"a": ArrayUnion([1, 1])}) == {"a": [1]}
    assert after("arr3", {}, {"a": ArrayUnion(["x"]), "b": ArrayRemove(["x"])}) == {"a": ["x"], "b": []}
    assert after("arr4", {"a": [1, 2, 1, {"k": "v"}]}, {"a": ArrayRemove([1, {"k": "v"}])}) == {"a": [2]}
    assert after("arr5", {"a": [1, 2.0]}, {"a": ArrayUnion([1.0, 2])}) == {"a": [1, 2.0]}
    assert after("arr6", {"a": [1, 2.0]}, {"a": ArrayRemove([1.0, 2])}) == {"a": []}
    assert after("arr7", {"a": 5}, {"a": ArrayRemove([5])}) == {"a": []}


@check("server timestamps in create, set, merge, update, batches and transactions")
def server_timestamps():
    doc = docs.document("ts")
    result = doc.create({"at": firestore.SERVER_TIMESTAMP, "m": {"at": firestore.SERVER_TIMESTAMP}})
    data = doc.get().to_dict()
    assert same_instant(data["at"], result.update_time) and same_instant(data["m"]["at"], result.update_time)
    result = doc.set({"later": firestore.SERVER_TIMESTAMP}, merge=True)
    data = doc.get().to_dict()
    assert same_instant(data["later"], result.update_time) and data["at"] < data["later"]
    result = doc.update({"m.at": firestore.SERVER_TIMESTAMP})
    assert same_instant(doc.get().get("m.at"), result.update_time)
    only = docs.document("ts-only")
    result = only.set({"at": firestore.SERVER_TIMESTAMP})  # a write of transforms alone
    assert list(only.get().to_dict()) == ["at"] and same_instant(only.get().get("at"), result.update_time)

    @firestore.transactional
    def stamp(transaction):
        transaction.get(doc)
        transaction.update(doc, {"tx": firestore.SERVER_TIMESTAMP, "count": Increment(1)})

    stamp(client.transaction())
    data = doc.get().to_dict()
    assert isinstance(data["tx"], datetime.datetime) and data["count"] == 1, data
    assert abs((data["tx"] - doc.get().update_time).total_seconds()) < 0.01


@check("field deletes in update and merge")
def field_deletes():
    doc = docs.document("del")
    doc.set({"a": 1, "b": 2, "m": {"x": 1, "y": 2}})
    doc.update({"a": firestore.DELETE_FIELD, "m.x": firestore.DELETE_FIELD, "gone": firestore.DELETE_FIELD})
    assert doc.get().to_dict() == {"b": 2, "m": {"y": 2}}
    doc.set({"b": firestore.DELETE_FIELD, "c": 3}, merge=True)
    assert doc.get().to_dict() == {"c": 3, "m": {"y": 2}}
    doc.set({"m": {"y": firestore.DELETE_FIELD}}, merge=["m.y"])
    assert doc.get().to_dict() == {"c": 3, "m": {}}


@check("merge with field paths")
def merges():
    doc = docs.document("merge")
    doc.set({"a": 1, "m": {"x": 1, "y": 1}})
    doc.set({"a": 2, "b": 2, "m": {"x": 2}}, merge=["b", "m.x"])
    assert doc.get().to_dict() == {"a": 1, "b": 2, "m": {"x": 2, "y": 1}}
    doc.set({"m": {"z": 3}}, merge=True)
    assert doc.get().to_dict() == {"a": 1, "b": 2, "m": {"x": 2, "y": 1, "z": 3}}


@check("create, update and delete preconditions")
def preconditions():
    doc = docs.document("pre")
    created = doc.create({"n": 1})
    try:
        doc.create({"n": 2})
        raise AssertionError("second create succeeded")
    except exceptions.AlreadyExists:
        pass
    try:
        docs.document("pre-missing").update({"n": Increment(1)})  # transforms alone, exists required
        raise AssertionError("update of a missing document succeeded")
    except exceptions.NotFound:
        pass
    assert not docs.document("pre-missing").get().exists
    updated = doc.update({"n": 2}, option=client.write_option(last_update_time=created.update_time))
    for stale in [
        lambda: doc.update({"n": 3}, option=client.write_option(last_update_time=created.update_time)),
        lambda: doc.delete(option=client.write_option(last_update_time=created.update_time)),
        lambda: doc.update({"n": 3}, option=client.write_option(
            last_update_time=created.update_time - datetime.timedelta(seconds=1))),
    ]:
        try:
            stale()
            raise AssertionError("a write with a stale update time succeeded")
        except exceptions.FailedPrecondition:
            pass
    assert doc.get().get("n") == 2
    doc.delete(option=client.write_option(last_update_time=updated.update_time))
    assert not doc.get().exists
    try:
        doc.delete(option=client.write_option(exists=True))
        raise AssertionError("delete with exists=True of a missing document succeeded")
    except exceptions.NotFound:
        pass
    created_again = doc.create({"n": 9})
    assert created_again.update_time > updated.update_time


@check("a failing write in a batch writes nothing")
def atomic_batch():
    doc = docs.document("atomic")
    doc.set({"n": 1})
    batch = client.batch()
    batch.update(doc, {"n": Increment(1)})
    batch.update(docs.document("atomic-missing"), {"n": 1})
    try:
        batch.commit()
        raise AssertionError("batch with an update of a missing document succeeded")
    except exceptions.NotFound:
        pass
    assert doc.get().get("n") == 1


run_checks("interop-transforms")
