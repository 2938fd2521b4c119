"""Interop: queries of every kind and aggregations through the official google-cloud-firestore
client, against a Firestore emulator (Hearth, or Google's for comparison).

Covers every field filter (==, !=, <, <=, >, >=, array-contains, in, not-in,
array-contains-any, null and NaN), composite AND and OR filters, filters on the document id,
order by with every cursor (values and snapshots), limit, limit-to-last, offset, projections,
collection groups, queries inside a transaction, and count, sum and avg aggregations.

Run by scripts/test-interop under `hearth exec`; exits 1 if any check fails.
"""

import math
import os
import sys

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import And, FieldFilter, Or
from google.cloud.firestore_v1.field_path import FieldPath

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from harness import RUN, check, client, collection, run_checks  # noqa: E402

CITIES = {
    "SF": {"name": "San Francisco", "state": "CA", "country": "USA", "capital": False,
           "population": 860000, "regions": ["west_coast", "norcal"], "score": 4.5},
    "LA": {"name": "Los Angeles", "state": "CA", "country": "USA", "capital": False,
           "population": 3900000, "regions": ["west_coast", "socal"], "score": 3.0},
    "DC": {"name": "Washington, D.C.", "state": None, "country": "USA", "capital": True,
           "population": 680000, "regions": ["east_coast"], "score": 4},
    "TOK": {"name": "Tokyo", "state": None, "country": "Japan", "capital": True,
            "population": 9000000, "regions": ["kanto", "honshu"], "score": float("nan")},
    "BJ": {"name": "Beijing", "state": None, "country": "China", "capital": True,
           "population": 21500000, "regions": ["jingjinji", "hebei"]},
}
cities = collection("cities")
for city_id, city in CITIES.items():
    cities.document(city_id).set(city)


def ids(query):
    """The ids a query answers, in its order."""
    return [snapshot.id for snapshot in query.stream()]


def where(field, op, value):
    return cities.where(filter=FieldFilter(field, op, value))


@check("equality and inequality filters")
def comparisons():
    assert sorted(ids(where("state", "==", "CA"))) == ["LA", "SF"]
    assert ids(where("population", "<", 1000000)) == ["DC", "SF"]
    assert ids(where("population", "<=", 860000)) == ["DC", "SF"]
    assert ids(where("population", ">", 3900000)) == ["TOK", "BJ"]
    assert ids(where("population", ">=", 3900000)) == ["LA", "TOK", "BJ"]
    assert ids(where("country", "!=", "USA")) == ["TOK", "BJ"][::-1]  # ordered by country
    assert ids(where("capital", "==", True)) == ["BJ", "DC", "TOK"]  # by document id


@check("null and NaN filters")
def null_and_nan():
    assert ids(where("state", "==", None)) == ["BJ", "DC", "TOK"]
    assert ids(where("state", "!=", None)) == ["LA", "SF"]
    assert ids(where("score", "==", float("nan"))) == ["TOK"]
    # != NaN matches every non-null number (Docs/Compatibility.md), and skips missing fields.
    assert ids(where("score", "!=", float("nan"))) == ["LA", "DC", "SF"]  # ordered by score


@check("array-contains, in, not-in and array-contains-any")
def array_and_list_filters():
    assert sorted(ids(where("regions", "array_contains", "west_coast"))) == ["LA", "SF"]
    assert ids(where("country", "in", ["Japan", "China"])) == ["BJ", "TOK"]
    assert ids(where("country", "not-in", ["USA", "China"])) == ["TOK"]
    assert ids(where("regions", "array_contains_any", ["socal", "kanto", "nowhere"])) == ["LA", "TOK"]
    assert ids(where("regions", "in", [["east_coast"], ["x"]])) == ["DC"]


@check("composite AND and OR filters")
def composite_filters():
    both = cities.where(filter=And([FieldFilter("state", "==", "CA"), FieldFilter("population", ">", 1000000)]))
    assert ids(both) == ["LA"]
    either = cities.where(filter=Or([FieldFilter("capital", "==", True), FieldFilter("population", "<", 1000000)]))
    assert ids(either) == ["DC", "SF", "TOK", "BJ"]  # ordered by population, the inequality
    nested = cities.where(filter=And([
        FieldFilter("country", "==", "USA"),
        Or([FieldFilter("state", "==", "CA"), FieldFilter("capital", "==", True)]),
        Or([FieldFilter("population", ">", 3000000), FieldFilter("regions", "array_contains", "east_coast")]),
    ]))
    assert ids(nested) == ["DC", "LA"]
    chained = where("country", "==", "USA").where(filter=FieldFilter("capital", "==", False))
    assert ids(chained) == ["LA", "SF"]


@check("filters and orders on the document id")
def document_id():
    key = FieldPath.document_id()
    assert ids(cities.where(filter=FieldFilter(key, "==", cities.document("SF")))) == ["SF"]
    assert ids(cities.where(filter=FieldFilter(key, ">=", cities.document("LA")))) == ["LA", "SF", "TOK"]
    assert ids(cities.where(filter=FieldFilter(key, "in", [cities.document("DC"), cities.document("X")]))) == ["DC"]
    assert ids(cities.order_by("name").limit(1)) == ["BJ"]


@check("order by with value cursors")
def value_cursors():
    by_population = cities.order_by("population")
    assert ids(by_population) == ["DC", "SF", "LA", "TOK", "BJ"]
    assert ids(by_population.start_at({"population": 860000})) == ["SF", "LA", "TOK", "BJ"]
    assert ids(by_population.start_after({"population": 860000})) == ["LA", "TOK", "BJ"]
    assert ids(by_population.end_at({"population": 3900000})) == ["DC", "SF", "LA"]
    assert ids(by_population.end_before({"population": 3900000})) == ["DC", "SF"]
    descending = cities.order_by("country", direction=firestore.Query.DESCENDING).order_by("population")
    assert ids(descending) == ["DC", "SF", "LA", "TOK", "BJ"]
    assert ids(descending.start_after({"country": "USA", "population": 860000})) == ["LA", "TOK", "BJ"]
    assert ids(descending.start_at({"country": "Japan"})) == ["TOK", "BJ"]


@check("order by with snapshot cursors")
def snapshot_cursors():
    la = cities.document("LA").get()
    by_population = cities.order_by("population")
    assert ids(by_population.start_after(la)) == ["TOK", "BJ"]
    assert ids(by_population.end_at(la)) == ["DC", "SF", "LA"]
    # A snapshot cursor on a query without orders orders by the document id.
    assert ids(cities.start_after(la)) == ["SF", "TOK"]
    # ... and with an inequality filter, by the filtered field first.
    assert ids(where("population", ">", 700000).start_at(la)) == ["LA", "TOK", "BJ"]


@check("limit, limit-to-last, offset and pages")
def limits():
    # A fresh query each time: the client's limit_to_last().get() flips the directions of the
    # orders it shares with the query it was made from.
    def by_population():
        return cities.order_by("population")

    assert ids(by_population().limit(2)) == ["DC", "SF"]
    assert [s.id for s in by_population().limit_to_last(2).get()] == ["TOK", "BJ"]
    assert [s.id for s in where("capital", "==", True).order_by("name").limit_to_last(1).get()] == ["DC"]
    assert ids(by_population().offset(3)) == ["TOK", "BJ"]
    assert ids(by_population().offset(1).limit(2)) == ["SF", "LA"]
    assert ids(by_population().limit(0)) == []
    pages, cursor = [], None
    while True:
        page = by_population().limit(2)
        if cursor is not None:
            page = page.start_after(cursor)
        snapshots = list(page.stream())
        if not snapshots:
            break
        pages.append([s.id for s in snapshots])
        cursor = snapshots[-1]
    assert pages == [["DC", "SF"], ["LA", "TOK"], ["BJ"]], pages


@check("projections (select)")
def projections():
    snapshots = list(where("state", "==", "CA").select(["name", "population"]).stream())
    assert {s.id: s.to_dict() for s in snapshots} == {
        "LA": {"name": "Los Angeles", "population": 3900000},
        "SF": {"name": "San Francisco", "population": 860000},
    }
    keys_only = list(cities.select([FieldPath.document_id()]).stream())
    assert [s.id for s in keys_only] == ["BJ", "DC", "LA", "SF", "TOK"]
    assert all(s.to_dict() == {} for s in keys_only)


@check("collection groups")
def collection_groups():
    group = f"landmarks-{RUN}"
    landmarks = {
        ("SF", "golden-gate"): {"name": "Golden Gate Bridge", "type": "bridge"},
        ("SF", "legion"): {"name": "Legion of Honor", "type": "museum"},
        ("LA", "griffith"): {"name": "Griffith Park", "type": "park"},
        ("TOK", "national"): {"name": "National Museum of Nature and Science", "type": "museum"},
    }
    for (city_id, landmark_id), data in landmarks.items():
        cities.document(city_id).collection(group).document(landmark_id).set(data)
    # A same-named collection at another depth belongs to the group too.
    client.collection(group).document("top").set({"name": "Top", "type": "museum"})
    client.collection(f"other-{RUN}").document("x").collection("y").document("z").set({"type": "museum"})
    museums = client.collection_group(group).where(filter=FieldFilter("type", "==", "museum"))
    assert sorted(s.reference.path for s in museums.stream()) == sorted([
        f"cities-{RUN}/SF/{group}/legion", f"cities-{RUN}/TOK/{group}/national", f"{group}/top",
    ])
    assert client.collection_group(group).count().get()[0][0].value == 5
    ordered = client.collection_group(group).order_by("name").limit(2)
    assert [s.get("name") for s in ordered.stream()] == ["Golden Gate Bridge", "Griffith Park"]


@check("count, sum and avg aggregations")
def aggregations():
    assert cities.count().get()[0][0].value == 5
    assert where("state", "==", "CA").count(alias="n").get()[0][0].alias == "n"
    result = {a.alias: a.value for a in cities.count(alias="all")
              .sum("population", alias="people").avg("population", alias="mean").get()[0]}
    assert result == {"all": 5, "people": 35940000, "mean": 7188000.0}, result
    usa = {a.alias: a.value for a in where("country", "==", "USA").sum("score", alias="s").get()[0]}
    assert usa == {"s": 11.5}, usa
    scores = {a.alias: a.value for a in cities.avg("score", alias="a").get()[0]}
    assert math.isnan(scores["a"])  # Tokyo's NaN
    nothing = {a.alias: a.value for a in where("country", "==", "Mars").sum("population", alias="s")
               .avg("population", alias="a").get()[0]}
    # The servers answer the integer 0 and null; the client reads both as 0.0
    # (`integer_value or double_value`).
    assert nothing == {"s": 0, "a": 0}, nothing
    limited = cities.order_by("population").limit(2).count(alias="n").get()[0][0].value
    assert limited == 2
    assert cities.where(filter=FieldFilter("missing", "==", 1)).count().get()[0][0].value == 0


@check("queries in a transaction")
def transactional_queries():
    @firestore.transactional
    def read(transaction):
        return [s.id for s in transaction.get(where("state", "==", "CA"))]

    assert sorted(read(client.transaction())) == ["LA", "SF"]


run_checks("interop-queries")
