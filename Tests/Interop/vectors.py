"""Interop: vector values (the client's `Vector`) and vector search (`find_nearest`) through the
official google-cloud-firestore client, against a Firestore emulator (Hearth, or Google's for
comparison).

Covers storing and reading vectors back, the messages refusing malformed ones, their place in
the value order (arrays < vectors < maps; by length, then element by element), range, equality
and `in` filters, a vector as a leaf for field paths, a listener ordered by a vector, and
`find_nearest` with every distance measure, thresholds, result fields, filters and a count.

Run by scripts/test-interop under `hearth exec`; exits 1 if any check fails.
"""

import concurrent.futures
import os
import sys

from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter
from google.cloud.firestore_v1.base_vector_query import DistanceMeasure
from google.cloud.firestore_v1.vector import Vector

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from harness import check, collection, run_checks  # noqa: E402

VECTOR = "__vector__"
values = collection("vector-values")
VALUES = {
    "arr": [9, 9, 9], "v1a": Vector([5.0]), "v1b": Vector([-1.0]), "v2a": Vector([1.0, 2.0]),
    "v2b": Vector([0.0, 100.0]), "vneg0": Vector([-0.0, 2.0]), "vinf": Vector([float("-inf"), 0.0]),
    "v3": Vector([1.0, 2.0, 3.0]), "map": {"value": [1.0]}, "num": 3,
}
for doc_id, value in VALUES.items():
    values.document(doc_id).set({"e": value})

nearest = collection("vector-search")
NEAREST = {
    "a": {"e": Vector([1.0, 0.0]), "k": 1}, "b": {"e": Vector([0.0, 1.0]), "k": 2},
    "c": {"e": Vector([1.0, 1.0]), "k": 3, "dist": "old"}, "d": {"e": Vector([2.0, 2.0]), "k": 4},
    "e0": {"e": Vector([0.0, 0.0]), "k": 5}, "f": {"e": Vector([1.0, 2.0, 3.0]), "k": 6},
    "g": {"e": [1.0, 1.0], "k": 7}, "h": {"k": 8}, "i": {"e": Vector([-1.0, 0.0]), "k": 9},
    "j": {"e": Vector([0.0, 1.0]), "k": 10},
}
for doc_id, data in NEAREST.items():
    nearest.document(doc_id).set(data)


def ids(query):
    return [snapshot.id for snapshot in query.stream()]


def where(field, op, value):
    return values.where(filter=FieldFilter(field, op, value))


def refused(write):
    """The message of the INVALID_ARGUMENT a call fails with."""
    try:
        write()
    except exceptions.InvalidArgument as error:
        return error.message
    raise AssertionError("expected INVALID_ARGUMENT")


@check("vectors are stored and read back as Vector, ints converted by the client")
def round_trip():
    doc = collection("vector-docs").document("v")
    doc.set({"a": Vector([1, 2]), "b": Vector([-0.0, float("inf")]), "deep": {"m": Vector([0.5])}})
    data = doc.get().to_dict()
    assert data == {"a": Vector([1.0, 2.0]), "b": Vector([-0.0, float("inf")]), "deep": {"m": Vector([0.5])}}, data
    assert str(data["b"].to_map_value()["value"][0]) == "-0.0"
    long = Vector([0.25] * 2048)
    doc.set({"long": long})
    assert doc.get().to_dict() == {"long": long}


@check("malformed vectors are refused with the emulator's messages")
def validation():
    doc = collection("vector-docs").document("bad")
    cases = [
        (Vector([]), "Cannot have a zero length vector."),
        ({"__type__": VECTOR, "value": [1, 2]}, "Vector must only contain values of type 'double'"),
        ({"__type__": VECTOR, "value": [1.0], "x": 1}, "Vector Value map has extraneous entries."),
        ({"__type__": VECTOR}, "Vector map is missing key 'value'."),
        ({"__type__": VECTOR, "value": 1.0}, "Vector Value type must be an array."),
        ({"__type__": "__foo__", "value": [1.0]}, "Property e contains an invalid nested entity."),
        ({"__type__": 5, "value": [1.0]}, "Field __type__ is not a string."),
        (Vector([float("nan")]), "Vector cannot contain NaN values."),
        (Vector([1.0] * 2049), "Vectors must be at most 2048 dimensions."),
        ([Vector([1.0])], "Cannot convert a vector value in an array value."),
    ]
    for value, message in cases:
        got = refused(lambda: doc.set({"e": value}))
        assert got == message, (value if not isinstance(value, Vector) else "vector", got)
    assert not doc.get().exists


@check("order by a vector field: arrays < vectors < maps, vectors by length then elements")
def order():
    expected = ["num", "arr", "v1b", "v1a", "vinf", "vneg0", "v2b", "v2a", "v3", "map"]
    assert ids(values.order_by("e")) == expected, ids(values.order_by("e"))
    assert ids(values.order_by("e", direction=firestore.Query.DESCENDING)) == expected[::-1]


@check("range, equality and in filters on vectors; -0.0 and 0.0 differ inside vectors")
def filters():
    assert ids(where("e", ">", Vector([1.0]))) == ["v1a", "vinf", "vneg0", "v2b", "v2a", "v3"]
    assert ids(where("e", "<", Vector([1.0, 2.0]))) == ["v1b", "v1a", "vinf", "vneg0", "v2b"]
    assert ids(where("e", ">", [])) == ["arr"]
    assert ids(where("e", "<", {})) == []
    assert ids(where("e", "==", Vector([1.0, 2.0]))) == ["v2a"]
    assert ids(where("e", "==", Vector([0.0, 2.0]))) == []
    assert ids(where("e", "==", Vector([-0.0, 2.0]))) == ["vneg0"]
    assert ids(where("e", "in", [Vector([1.0, 2.0]), Vector([5.0])])) == ["v1a", "v2a"]
    assert "v2a" not in ids(where("e", "!=", Vector([1.0, 2.0])))
    assert ids(where("e", ">", {"__type__": VECTOR, "value": [float("nan")]})) == ["vinf", "vneg0", "v2b", "v2a", "v3"]
    assert refused(lambda: ids(where("e", "==", {"__type__": VECTOR, "value": [1, 2]}))) \
        == "Vector must only contain values of type 'double'"
    assert refused(lambda: ids(where("e", ">", Vector([])))) == "Cannot have a zero length vector."


@check("a vector is a leaf: its fields are not addressable, writing below it replaces it")
def leaf():
    assert ids(where("e.value", "==", [1.0, 2.0])) == []
    assert ids(values.order_by("e.value")) == ["map"]
    assert values.document("v2a").get(field_paths=["e.value"]).to_dict() == {}
    doc = collection("vector-docs").document("leaf")
    doc.set({"e": Vector([1.0, 2.0])})
    doc.update({"e.value": [3.0]})
    assert doc.get().to_dict() == {"e": {"value": [3.0]}}


@check("array union and remove accept a vector element")
def array_transforms():
    doc = collection("vector-docs").document("union")
    doc.set({"a": [1]})
    doc.update({"a": firestore.ArrayUnion([Vector([1.0])])})
    assert doc.get().to_dict() == {"a": [1, Vector([1.0])]}
    doc.update({"a": firestore.ArrayRemove([Vector([1.0])])})
    assert doc.get().to_dict() == {"a": [1]}


@check("a listener ordered by a vector field sees the vector order")
def listener():
    future = concurrent.futures.Future()

    def on_snapshot(docs, changes, read_time):
        if len(docs) >= len(VALUES) and not future.done():
            future.set_result([doc.id for doc in docs])

    watch = values.order_by("e").on_snapshot(on_snapshot)
    try:
        assert future.result(timeout=30) == ["num", "arr", "v1b", "v1a", "vinf", "vneg0", "v2b", "v2a", "v3", "map"]
    finally:
        watch.unsubscribe()


def search(measure, limit=20, query=None, **options):
    base = nearest if query is None else query
    return [(snapshot.id, snapshot.to_dict().get("dist")) for snapshot in
            base.find_nearest("e", Vector([1.0, 1.0]), limit, measure, distance_result_field="dist", **options).get()]


@check("find_nearest with each measure: nearest first, ties by name, NaN last (first for dot product)")
def find_nearest_measures():
    assert search(DistanceMeasure.EUCLIDEAN) == [
        ("c", 0.0), ("a", 1.0), ("b", 1.0), ("j", 1.0), ("d", 1.4142135623730951), ("e0", 1.4142135623730951),
        ("i", 2.23606797749979)]
    cosine = search(DistanceMeasure.COSINE)
    assert cosine[:-1] == [("c", 0.0), ("d", 0.0), ("a", 0.29289321881345254), ("b", 0.29289321881345254),
                           ("j", 0.29289321881345254), ("i", 1.7071067811865475)], cosine
    assert cosine[-1][0] == "e0" and cosine[-1][1] != cosine[-1][1], cosine  # NaN for the zero vector
    assert search(DistanceMeasure.DOT_PRODUCT) == [
        ("d", 4.0), ("c", 2.0), ("a", 1.0), ("b", 1.0), ("j", 1.0), ("e0", 0.0), ("i", -1.0)]
    three = [(s.id, s.get("dist")) for s in nearest.find_nearest(
        "e", Vector([3.0, 4.0, 5.0]), 1, DistanceMeasure.COSINE, distance_result_field="dist").get()]
    assert three == [("f", 0.017292370176009153)], three


@check("find_nearest thresholds, limits, filters, order-by ties, projections and counts")
def find_nearest_options():
    assert search(DistanceMeasure.EUCLIDEAN, distance_threshold=1.0) == [("c", 0.0), ("a", 1.0), ("b", 1.0), ("j", 1.0)]
    assert [i for i, _ in search(DistanceMeasure.DOT_PRODUCT, distance_threshold=1.0)] == ["d", "c", "a", "b", "j"]
    assert len(search(DistanceMeasure.COSINE, distance_threshold=1.0)) == 5
    assert search(DistanceMeasure.EUCLIDEAN, limit=2) == [("c", 0.0), ("a", 1.0)]
    assert [i for i, _ in search(DistanceMeasure.EUCLIDEAN, query=nearest.where(filter=FieldFilter("k", ">", 2)))] \
        == ["c", "j", "d", "e0", "i"]
    assert [i for i, _ in search(DistanceMeasure.EUCLIDEAN, limit=4, query=nearest.order_by(
        "k", direction=firestore.Query.DESCENDING))] == ["c", "j", "b", "a"]
    projected = nearest.select(["k"]).find_nearest("e", Vector([1.0, 1.0]), 1, DistanceMeasure.EUCLIDEAN,
                                                   distance_result_field="dist").get()
    assert [s.to_dict() for s in projected] == [{"k": 3}]
    replaced = nearest.find_nearest("e", Vector([1.0, 1.0]), 1, DistanceMeasure.EUCLIDEAN,
                                    distance_result_field="e").get()
    assert replaced[0].to_dict() == {"e": 0.0, "k": 3, "dist": "old"}


@check("invalid find_nearest requests are refused with the emulator's messages")
def find_nearest_validation():
    def message(limit=3, vector=Vector([1.0, 1.0]), query=None, **options):
        base = nearest if query is None else query
        return refused(lambda: base.find_nearest("e", vector, limit, DistanceMeasure.EUCLIDEAN, **options).get())
    assert message(limit=0) == "FindNearest.limit must be a positive integer of no more than 1000"
    assert message(limit=1001) == "FindNearest.limit must be a positive integer of no more than 1000"
    assert message(vector=Vector([])) == "Cannot have a zero length vector."
    assert message(vector=Vector([1.0] * 2049)) == "Vectors must be at most 2048 dimensions."
    assert message(distance_threshold=float("inf")) == "distanceThreshold must be a finite number."
    assert message(distance_result_field="__name__") == 'The distanceResultField.property.name "__name__" is reserved.'
    assert message(query=nearest.limit(2)) == "A query limit cannot be used with FindNearest"
    assert message(query=nearest.offset(1)) == "A query offset cannot be used with FindNearest"
    assert message(query=nearest.order_by("k").start_at({"k": 2})) == "A cursor cannot be used with FindNearest"


run_checks("vectors")
