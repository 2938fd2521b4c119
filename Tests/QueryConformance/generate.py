#!/usr/bin/env python3
"""Generate random Firestore datasets and queries for the differential query tests.

Usage:
    generate.py SEED [--queries N] [--out FILE]

Writes one case file (JSON, see README.md) for SEED: a dataset of documents in REST JSON form and
N queries (default 100) in proto3 JSON form (`structuredQuery` or `structuredAggregationQuery`),
without results. `record.py` adds Google's emulator's results. The same seed always gives the same
file: everything comes from `random.Random(seed)`.

Standard library only.
"""

import argparse
import json
import random
import sys

PROJECT = "demo-query-diff"
DATABASE = "(default)"
ROOT = "projects/%s/databases/%s/documents" % (PROJECT, DATABASE)
GENERATOR_VERSION = 1
DEFAULT_QUERIES = 100

INT64_MAX = 2 ** 63 - 1
INT64_MIN = -(2 ** 63)

# ---------------------------------------------------------------------------------------------
# REST JSON value builders


def I(v):
    return {"integerValue": str(v)}


def D(v):
    if v != v:
        return {"doubleValue": "NaN"}
    if v == float("inf"):
        return {"doubleValue": "Infinity"}
    if v == float("-inf"):
        return {"doubleValue": "-Infinity"}
    return {"doubleValue": v}


def S(v):
    return {"stringValue": v}


def B(v):
    return {"booleanValue": v}


NULL = {"nullValue": None}


def TS(text):
    return {"timestampValue": text}


def BY(b64):
    return {"bytesValue": b64}


def REF(path):
    return {"referenceValue": ROOT + "/" + path}


def GEO(lat, lng):
    return {"geoPointValue": {"latitude": lat, "longitude": lng}}


def ARR(values):
    return {"arrayValue": {"values": list(values)}} if values else {"arrayValue": {}}


def MAP(fields):
    return {"mapValue": {"fields": dict(fields)}} if fields else {"mapValue": {}}


def FP(path):
    return {"fieldPath": path}


NAN = D(float("nan"))

# Small pools, so that equality filters and cursors hit stored values and orders have ties.
NUMBERS = [I(-3), I(-1), I(0), I(1), I(2), I(3), I(5), D(-0.0), D(0.0), D(0.5), D(1.0), D(2.5), D(-1.5),
           D(3.0), NAN, D(float("inf")), D(float("-inf")), I(2 ** 53 + 1), D(2.0 ** 53), I(INT64_MAX),
           I(INT64_MIN), D(1e300), D(-0.25)]
STRINGS = ["", "a", "A", "b", "ab", "a b", "B", "\u00e9", "e\u0301", "z", "\U0001F600", "\uE000", "10", "9",
           "aa", "\u0000"]
TIMESTAMPS = ["1970-01-01T00:00:00Z", "2001-02-03T04:05:06.123456Z", "2001-02-03T04:05:06Z",
              "2024-06-01T12:00:00.000001Z", "1969-12-31T23:59:59.999999Z", "0001-01-01T00:00:00Z",
              "9999-12-31T23:59:59.999999Z"]
BYTES = ["", "AA==", "AAA=", "fw==", "gA==", "/w==", "YWJj"]
GEOS = [(0, 0), (1, -5), (-1, 100), (1, 5), (2, 0), (-90, -180), (90, 180)]
MAP_KEYS = ["x", "y", "z", "B", "aa"]


class Generator:
    def __init__(self, seed, query_count=DEFAULT_QUERIES):
        self.seed = seed
        self.r = random.Random(seed)
        self.query_count = query_count
        self.documents = []        # [{"path": ..., "fields": {...}}]
        self.collections = {}      # collection path -> [document paths]
        self.parents = []          # document paths that have subcollections (may be missing docs)

    # -----------------------------------------------------------------------------------------
    # Values

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(seq)

    def number(self):
        return self.pick(NUMBERS)

    def string(self):
        return S(self.pick(STRINGS))

    def timestamp(self):
        return TS(self.pick(TIMESTAMPS))

    def bytes_(self):
        return BY(self.pick(BYTES))

    def reference(self):
        paths = [d["path"] for d in self.documents] or ["items/d00"]
        return REF(self.pick(paths + ["items/zz", "a/b/c/d"]))

    def geo(self):
        lat, lng = self.pick(GEOS)
        return GEO(lat, lng)

    def small_element(self):
        return self.pick([I(0), I(1), I(2), I(3), D(1.0), S("a"), S("b"), S("c"), NULL, NAN, B(True),
                          MAP({"x": I(1)}), S("")])

    def small_array(self, max_len=4):
        return ARR([self.small_element() for _ in range(self.r.randint(0, max_len))])

    def small_map(self, depth=0):
        fields = {}
        for key in self.r.sample(MAP_KEYS, self.r.randint(0, 3)):
            if key == "z" and depth < 1:
                fields[key] = self.small_map(depth + 1)
            elif key == "x":
                fields[key] = self.pick([I(0), I(1), I(2), D(1.5), NAN, S("x"), NULL])
            else:
                fields[key] = self.pick([I(1), I(2), S("a"), S("b"), B(False), NULL])
        return MAP(fields)

    def any_value(self, depth=0):
        kind = self.r.randint(0, 11)
        if kind == 0:
            return NULL
        if kind == 1:
            return B(self.chance(0.5))
        if kind in (2, 3):
            return self.number()
        if kind == 4:
            return self.timestamp()
        if kind == 5:
            return self.string()
        if kind == 6:
            return self.bytes_()
        if kind == 7:
            return self.reference()
        if kind == 8:
            return self.geo()
        if kind == 9 or kind == 10:
            return self.small_array() if depth == 0 else ARR([])
        return self.small_map(depth + 1)

    # Each field has its own distribution (None = the field is missing).
    def field_value(self, field):
        c = self.r.random()
        if field == "n":
            return I(self.r.randint(0, 4)) if c < 0.75 else (None if c < 0.87 else self.any_value())
        if field == "a":
            if c < 0.72:
                return self.number()
            return NULL if c < 0.78 else (self.string() if c < 0.84 else None)
        if field == "b":
            if c < 0.7:
                return self.string()
            return self.number() if c < 0.78 else (NULL if c < 0.84 else None)
        if field == "c":
            return self.any_value() if c < 0.88 else None
        if field == "tags":
            if c < 0.78:
                return self.small_array()
            return self.any_value(depth=1) if c < 0.85 else None
        if field == "m":
            if c < 0.7:
                return self.small_map()
            return self.any_value(depth=1) if c < 0.8 else None
        if field == "flag":
            return B(self.chance(0.5)) if c < 0.7 else (NULL if c < 0.8 else None)
        if field == "ts":
            return self.timestamp() if c < 0.65 else (self.string() if c < 0.7 else None)
        if field == "x.y":
            return I(self.r.randint(0, 2)) if c < 0.25 else None
        if field == "g":
            return self.geo() if c < 0.4 else None
        raise ValueError(field)

    FIELDS = ["n", "a", "b", "c", "tags", "m", "flag", "ts", "x.y", "g"]

    # -----------------------------------------------------------------------------------------
    # Dataset

    ROOT_IDS = ["d%02d" % i for i in range(70)] + ["A", "a", "\u00e9", "__x", "a b", "Z9", "0", "10", "9",
                                                      "a-b", "\U0001F600", "aa"]

    def add_document(self, path, empty=False):
        fields = {}
        if not empty:
            for field in self.FIELDS:
                value = self.field_value(field)
                if value is not None:
                    fields[field] = value
        self.documents.append({"path": path, "fields": fields})
        collection = path.rsplit("/", 1)[0]
        self.collections.setdefault(collection, []).append(path)

    def make_dataset(self):
        r = self.r
        count = r.randint(45, 70)
        ids = r.sample(self.ROOT_IDS, count)
        for doc_id in ids:
            self.add_document("items/" + doc_id, empty=self.chance(0.04))
        for doc_id in r.sample(self.ROOT_IDS, r.randint(4, 8)):
            self.add_document("other/" + doc_id)
        # Subcollections: "items" again (for collection groups) and "sub", some two levels deep,
        # and some under documents that do not exist ("missing" parents).
        parents = r.sample(ids, min(len(ids), r.randint(3, 6)))
        for parent in parents:
            base = "items/" + parent
            self.parents.append(base)
            for sub in r.sample(["items", "sub"], r.randint(1, 2)):
                for child in r.sample(self.ROOT_IDS, r.randint(1, 5)):
                    self.add_document("%s/%s/%s" % (base, sub, child))
        deep_parent = "items/%s/sub/s1" % parents[0]
        self.parents.append(deep_parent)
        for child in r.sample(self.ROOT_IDS, r.randint(1, 4)):
            self.add_document("%s/items/%s" % (deep_parent, child))
        ghost = "ghost/g%d" % r.randint(0, 9)
        self.parents.append(ghost)
        for child in r.sample(self.ROOT_IDS, r.randint(1, 3)):
            self.add_document("%s/items/%s" % (ghost, child))
        other_parent = "other/%s" % self.collections["other"][0].split("/")[1]
        self.parents.append(other_parent)
        for child in r.sample(self.ROOT_IDS, r.randint(1, 3)):
            self.add_document("%s/items/%s" % (other_parent, child))
        # Deduplicate (sampling may repeat a path under one parent only via ROOT_IDS, which it
        # does not, but keep the dataset well-formed regardless).
        seen, unique = set(), []
        for doc in self.documents:
            if doc["path"] not in seen:
                seen.add(doc["path"])
                unique.append(doc)
        self.documents = unique

    # -----------------------------------------------------------------------------------------
    # Queries

    FILTER_FIELDS = ["n", "n", "n", "a", "a", "a", "b", "b", "c", "c", "tags", "tags", "m", "m.x", "m.x", "m.y",
                     "m.z.x", "flag", "flag", "ts", "`x.y`", "g", "__name__", "__name__", "nope"]
    ORDER_FIELDS = ["n", "n", "a", "a", "b", "c", "c", "tags", "m", "m.x", "flag", "ts", "`x.y`", "g", "nope"]
    INEQUALITY = {"LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN", "GREATER_THAN_OR_EQUAL", "NOT_EQUAL",
                  "NOT_IN"}

    def scope_documents(self):
        """The documents the current query reads (before filters)."""
        q = self.current
        docs = []
        for d in self.documents:
            segments = d["path"].split("/")
            parent = "/".join(segments[:-2])
            if q["allDescendants"]:
                if q["parent"] and not d["path"].startswith(q["parent"] + "/"):
                    continue
                if q["collectionId"] and segments[-2] != q["collectionId"]:
                    continue
            elif parent != q["parent"] or segments[-2] != q["collectionId"]:
                continue
            docs.append(d)
        return docs

    @staticmethod
    def value_at(fields, path):
        segments = [path[1:-1]] if path.startswith("`") else path.split(".")
        value = {"mapValue": {"fields": fields}}
        for segment in segments:
            inner = value.get("mapValue", {}).get("fields") if isinstance(value, dict) else None
            if not inner or segment not in inner:
                return None
            value = inner[segment]
        return value

    def stored_value(self, path, element=False):
        """A value stored at `path` (an element of it, for `element`) in a document the query
        reads, or None."""
        docs = self.scope_documents()
        for _ in range(8):
            if not docs:
                return None
            value = self.value_at(self.pick(docs)["fields"], path)
            if value is None:
                continue
            if element:
                values = value.get("arrayValue", {}).get("values") if isinstance(value, dict) else None
                if not values:
                    continue
                return self.pick(values)
            return value
        return None

    def field_sample(self, path):
        """A value like the ones stored at `path`, or now and then any value."""
        if path == "__name__":
            return self.name_value()
        if self.chance(0.55):
            stored = self.stored_value(path)
            if stored is not None:
                return stored
        if self.chance(0.1):
            return self.any_value()
        if path.startswith("m."):
            inner = self.small_map()
            fields = inner["mapValue"].get("fields", {})
            key = path.split(".")[1]
            if key in fields and not path.startswith("m.z."):
                return fields[key]
            return self.pick([I(1), I(2), S("a"), D(1.5), NAN, NULL])
        base = {"`x.y`": "x.y", "nope": "n"}.get(path, path)
        for _ in range(10):
            value = self.field_value(base)
            if value is not None:
                return value
        return I(1)

    def name_value(self):
        """A reference to a document of the queried collection(s), mostly one that exists."""
        q = self.current
        if q["allDescendants"] or self.chance(0.1):
            pool = [d["path"] for d in self.documents]
        else:
            collection = (q["parent"] + "/" if q["parent"] else "") + q["collectionId"]
            pool = self.collections.get(collection, []) + [collection + "/" + i for i in ("zz", "d15", "a", "")]
            pool = [p for p in pool if not p.endswith("/")]
        return REF(self.pick(pool))

    def in_array(self, path, op):
        n = self.r.choices([1, 2, 3, 4, 5, 8], [3, 4, 4, 3, 2, 1])[0]
        values = []
        for _ in range(n):
            if op == "ARRAY_CONTAINS_ANY" and path != "__name__":
                value = self.stored_value(path, element=True) if self.chance(0.5) else None
                if value is None:
                    value = self.small_element() if self.chance(0.7) else self.field_sample(path)
                values.append(value)
            else:
                values.append(self.field_sample(path))
        return ARR(values)

    def field_filter(self, state):
        path = self.pick(self.FILTER_FIELDS)
        ops = ["EQUAL", "EQUAL", "NOT_EQUAL", "LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN",
               "GREATER_THAN_OR_EQUAL", "IN", "NOT_IN", "ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY"]
        if path == "__name__":
            ops = ["EQUAL", "NOT_EQUAL", "LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN",
                   "GREATER_THAN_OR_EQUAL", "IN", "NOT_IN"]
        elif path == "tags":
            ops += ["ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY", "ARRAY_CONTAINS"]
        # Keep most queries valid: Firestore allows one of !=/not-in, one array-contains(-any) and
        # no not-in beside in/array-contains-any/OR. A few violations stay, as invalid queries.
        for _ in range(20):
            op = self.pick(ops)
            if op in ("ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY") and path not in ("tags", "__name__") and self.chance(0.7):
                path = "tags"
            if op in ("NOT_EQUAL", "NOT_IN") and state["negation"] and not self.chance(0.05):
                continue
            if op in ("ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY") and state["arrayContains"] and not self.chance(0.05):
                continue
            if op == "NOT_IN" and (state["inLike"] or state["or"]) and not self.chance(0.05):
                continue
            if op in ("IN", "ARRAY_CONTAINS_ANY") and state["notIn"] and not self.chance(0.05):
                continue
            break
        if op in ("NOT_EQUAL", "NOT_IN"):
            state["negation"] = True
        if op == "NOT_IN":
            state["notIn"] = True
        if op in ("ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY"):
            state["arrayContains"] = True
        if op in ("IN", "ARRAY_CONTAINS_ANY"):
            state["inLike"] = True
        if op in self.INEQUALITY:
            state["inequalities"].add(path)
        if op in ("IN", "NOT_IN", "ARRAY_CONTAINS_ANY"):
            value = self.in_array(path, op)
        elif op == "ARRAY_CONTAINS":
            value = self.stored_value(path, element=True) if self.chance(0.6) else None
            if value is None:
                value = self.small_element() if self.chance(0.7) else self.field_sample(path)
        else:
            value = self.field_sample(path)
        return {"fieldFilter": {"field": FP(path), "op": op, "value": value}}

    def unary_filter(self, state):
        path = self.pick([p for p in self.FILTER_FIELDS if p != "__name__"])
        op = self.pick(["IS_NULL", "IS_NAN", "IS_NOT_NULL", "IS_NOT_NAN"])
        if op in ("IS_NOT_NULL", "IS_NOT_NAN"):
            if state["negation"] and not self.chance(0.05):
                op = op.replace("_NOT", "")
            else:
                state["negation"] = True
                state["inequalities"].add(path)
        return {"unaryFilter": {"field": FP(path), "op": op}}

    def filter(self, state, depth=0):
        c = self.r.random()
        if depth < 2 and c < (0.35 if depth == 0 else 0.2):
            op = "OR" if self.chance(0.55) else "AND"
            if op == "OR":
                state["or"] = True
            count = self.r.choices([0, 1, 2, 3, 4], [0.4, 3, 12, 4, 1] if op == "AND" else [0.4, 3, 10, 6, 2])[0]
            return {"compositeFilter": {"op": op, "filters": [self.filter(state, depth + 1) for _ in range(count)]}}
        if c < 0.8:
            return self.field_filter(state)
        return self.unary_filter(state)

    def selector(self):
        """Chooses a parent and collection selector; sets self.current."""
        c = self.r.random()
        if c < 0.6:
            q = {"parent": "", "collectionId": "items", "allDescendants": False}
        elif c < 0.66:
            q = {"parent": "", "collectionId": "other", "allDescendants": False}
        elif c < 0.74:
            parent = self.pick(self.parents)
            q = {"parent": parent, "collectionId": self.pick(["items", "sub"]), "allDescendants": False}
        elif c < 0.92:
            parent = "" if self.chance(0.7) else self.pick(self.parents)
            q = {"parent": parent, "collectionId": self.pick(["items", "items", "sub"]), "allDescendants": True}
        elif c < 0.96:
            parent = "" if self.chance(0.5) else self.pick(self.parents)
            q = {"parent": parent, "collectionId": "", "allDescendants": True}
        else:
            q = {"parent": "", "collectionId": self.pick(["nothing", "ghost"]), "allDescendants": False}
        self.current = q
        return q

    def from_json(self, q):
        selector = {}
        if q["collectionId"]:
            selector["collectionId"] = q["collectionId"]
        if q["allDescendants"]:
            selector["allDescendants"] = True
        return [selector]

    def cursor(self, orders):
        """Values for a prefix of the explicit orders (Firestore counts only those), `__name__` as a
        reference; now and then one value too many (refused)."""
        if not orders:
            if not self.chance(0.05):
                return None
            return {"values": [self.name_value()], "before": self.chance(0.5)}
        n = self.r.randint(1, len(orders))
        if self.chance(0.04):
            n = len(orders) + 1
        paths = ([p for p, _ in orders] + ["__name__"])[:n]
        if self.chance(0.7):
            # The position of a document the query reads, as an SDK's snapshot cursor would give.
            candidates = [d for d in self.scope_documents()
                          if all(p == "__name__" or self.value_at(d["fields"], p) is not None for p in paths)]
            if candidates:
                doc = self.pick(candidates)
                values = [REF(doc["path"]) if p == "__name__" else self.value_at(doc["fields"], p) for p in paths]
                return {"values": values, "before": self.chance(0.5)}
        values = [self.name_value() if path == "__name__" else self.field_sample(path) for path in paths]
        return {"values": values, "before": self.chance(0.5)}

    def key_only(self, q):
        """Collection-group queries under a document, and queries of every collection
        (`allDescendants` with no collection id), take only what a key scan can answer: filters
        on `__name__`, ascending `__name__` order, `__name__` cursors, offset, limit, select. (These
        are the queries that recursive deletes send.)"""
        return q["allDescendants"] and (q["parent"] or not q["collectionId"])

    def name_filter(self, state):
        op = self.pick(["EQUAL", "LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN", "GREATER_THAN_OR_EQUAL",
                        "GREATER_THAN", "IN", "NOT_EQUAL"])
        if op in self.INEQUALITY:
            state["inequalities"].add("__name__")
        if op == "NOT_EQUAL":
            state["negation"] = True
        value = self.in_array("__name__", op) if op == "IN" else self.name_value()
        return {"fieldFilter": {"field": FP("__name__"), "op": op, "value": value}}

    def structured_query(self, allow_select=True):
        q = self.selector()
        state = {"negation": False, "notIn": False, "arrayContains": False, "inLike": False, "or": False,
                 "inequalities": set()}
        sq = {"from": self.from_json(q)}
        if allow_select and self.chance(0.15):
            choice = self.r.random()
            if choice < 0.3:
                fields = [FP("__name__")]
            elif choice < 0.4:
                fields = []
            else:
                fields = [FP(p) for p in self.r.sample(["n", "a", "m.x", "m", "tags", "nope", "`x.y`", "b", "c"],
                                                       self.r.randint(1, 3))]
            sq["select"] = {"fields": fields}
        key_only = self.key_only(q) and not self.chance(0.1)
        orders = []
        if key_only:
            if self.chance(0.5):
                sq["where"] = self.name_filter(state)
                if self.chance(0.3):
                    sq["where"] = {"compositeFilter": {"op": "AND", "filters": [sq["where"], self.name_filter(state)]}}
            if self.chance(0.5):
                orders.append(("__name__", "ASCENDING"))
        else:
            if self.chance(0.7):
                sq["where"] = self.filter(state)
            if self.chance(0.6):
                for path in self.r.sample(self.ORDER_FIELDS, self.r.choices([1, 2, 3], [5, 3, 1])[0]):
                    if path not in [o[0] for o in orders]:
                        orders.append((path, self.pick(["ASCENDING", "DESCENDING"])))
                if self.chance(0.35):
                    # As the SDKs do before a cursor: order the inequality fields, then __name__.
                    if not self.chance(0.1):
                        explicit = [p for p, _ in orders]
                        last = orders[-1][1]
                        for path in sorted(state["inequalities"]):
                            if path not in explicit and path != "__name__":
                                orders.append((path, last))
                    orders.append(("__name__", self.pick(["ASCENDING", "DESCENDING"])))
            elif self.chance(0.12):
                orders.append(("__name__", self.pick(["ASCENDING", "DESCENDING"])))
        # Firestore's effective order: explicit orders, then inequality fields not yet ordered (by
        # field path), then __name__ in the direction of the last order.
        explicit = [o[0] for o in orders]
        last = orders[-1][1] if orders else "ASCENDING"
        effective = list(orders)
        for path in sorted(p for p in state["inequalities"] if p not in explicit and p != "__name__"):
            effective.append((path, last))
        if "__name__" not in explicit:
            effective.append(("__name__", last))
        if orders:
            sq["orderBy"] = [self.order_json(p, d) for p, d in orders]
        if self.chance(0.3):
            sq["startAt"] = self.cursor(orders)
        if self.chance(0.25):
            sq["endAt"] = self.cursor(orders)
        for key in ("startAt", "endAt"):
            if sq.get(key) is None:
                sq.pop(key, None)
        if self.chance(0.15):
            sq["offset"] = self.r.randint(0, 6)
        if self.chance(0.4):
            sq["limit"] = self.r.randint(0, 12)
        limit_to_last = None
        if orders and not key_only and self.chance(0.12):
            limit_to_last = self.pick(["python", "js"])
            sq["limit"] = self.r.randint(1, 8)
            sq.pop("offset", None)
            if limit_to_last == "python":
                # google-cloud-firestore's Query.get(): flip the explicit orders, keep the cursors.
                sq["orderBy"] = [self.order_json(p, self.flip(d)) for p, d in orders]
            else:
                # The JS/Android SDKs: flip every normalized order (with the implicit ones) and
                # swap the cursors, flipping `before`.
                sq["orderBy"] = [self.order_json(p, self.flip(d)) for p, d in effective]
                start, end = sq.pop("startAt", None), sq.pop("endAt", None)
                if end is not None:
                    sq["startAt"] = {"values": end["values"], "before": not end["before"]}
                if start is not None:
                    sq["endAt"] = {"values": start["values"], "before": not start["before"]}
        for key in ("startAt", "endAt"):
            if key in sq and not sq[key]["before"]:
                sq[key] = {"values": sq[key]["values"]}
        return q, sq, effective, limit_to_last

    @staticmethod
    def flip(direction):
        return "DESCENDING" if direction == "ASCENDING" else "ASCENDING"

    @staticmethod
    def order_json(path, direction):
        return {"field": FP(path), "direction": direction}

    # Invalid queries, each a mutation of a valid one that Firestore refuses.
    def invalidate(self, q, sq, effective):
        kind = self.pick(["cursor-too-long", "in-too-many", "in-not-array", "in-empty", "negative-limit",
                          "negative-offset", "name-not-reference", "order-duplicate", "order-after-name",
                          "two-array-contains", "not-in-with-in", "bad-field-path", "too-many-disjunctions",
                          "cursor-name-not-reference", "unary-on-name", "array-contains-on-name",
                          "two-not-equal", "not-in-too-many", "empty-field-path", "name-cursor-string"])
        where = sq.get("where")

        def add(f):
            sq["where"] = {"compositeFilter": {"op": "AND", "filters": [f] + ([where] if where else [])}}

        if kind == "cursor-too-long":
            sq["startAt"] = {"values": [self.field_sample(p) if p != "__name__" else self.name_value()
                                        for p, _ in effective] + [I(1)]}
        elif kind == "in-too-many":
            add({"fieldFilter": {"field": FP("n"), "op": self.pick(["IN", "ARRAY_CONTAINS_ANY"]),
                                 "value": ARR([I(i) for i in range(31)])}})
        elif kind == "not-in-too-many":
            add({"fieldFilter": {"field": FP("n"), "op": "NOT_IN", "value": ARR([I(i) for i in range(11)])}})
        elif kind == "in-not-array":
            add({"fieldFilter": {"field": FP("n"), "op": self.pick(["IN", "NOT_IN", "ARRAY_CONTAINS_ANY"]),
                                 "value": I(1)}})
        elif kind == "in-empty":
            add({"fieldFilter": {"field": FP("a"), "op": self.pick(["IN", "NOT_IN", "ARRAY_CONTAINS_ANY"]),
                                 "value": ARR([])}})
        elif kind == "negative-limit":
            sq["limit"] = -self.r.randint(1, 3)
        elif kind == "negative-offset":
            sq["offset"] = -self.r.randint(1, 3)
        elif kind == "name-not-reference":
            add({"fieldFilter": {"field": FP("__name__"), "op": self.pick(["EQUAL", "LESS_THAN", "IN"]),
                                 "value": self.pick([S("d01"), I(1), ARR([S("d01")])])}})
        elif kind == "order-duplicate":
            sq["orderBy"] = [self.order_json("n", "ASCENDING"), self.order_json("n", "DESCENDING")]
        elif kind == "order-after-name":
            sq["orderBy"] = [self.order_json("__name__", "ASCENDING"), self.order_json("a", "ASCENDING")]
        elif kind == "two-array-contains":
            add({"compositeFilter": {"op": "AND", "filters": [
                {"fieldFilter": {"field": FP("tags"), "op": "ARRAY_CONTAINS", "value": I(1)}},
                {"fieldFilter": {"field": FP("c"), "op": self.pick(["ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY"]),
                                 "value": ARR([I(1)])}}]}})
        elif kind == "not-in-with-in":
            add({"compositeFilter": {"op": "AND", "filters": [
                {"fieldFilter": {"field": FP("n"), "op": "NOT_IN", "value": ARR([I(1)])}},
                {"fieldFilter": {"field": FP("a"), "op": "IN", "value": ARR([I(1), I(2)])}}]}})
        elif kind == "bad-field-path":
            path = self.pick(["a..b", ".a", "a.", "1a", "a b", "`a", "\u00e9"])
            where_kind = self.r.randint(0, 2)
            if where_kind == 0:
                add({"fieldFilter": {"field": FP(path), "op": "EQUAL", "value": I(1)}})
            elif where_kind == 1:
                sq["orderBy"] = [self.order_json(path, "ASCENDING")]
                sq.pop("startAt", None)
                sq.pop("endAt", None)
            else:
                sq["select"] = {"fields": [FP(path)]}
        elif kind == "empty-field-path":
            add({"fieldFilter": {"field": FP(""), "op": "EQUAL", "value": I(1)}})
        elif kind == "too-many-disjunctions":
            add({"compositeFilter": {"op": "AND", "filters": [
                {"fieldFilter": {"field": FP("n"), "op": "IN", "value": ARR([I(i) for i in range(6)])}},
                {"fieldFilter": {"field": FP("b"), "op": "IN", "value": ARR([S(s) for s in STRINGS[:6]])}}]}})
        elif kind == "cursor-name-not-reference" or kind == "name-cursor-string":
            sq["orderBy"] = [self.order_json("__name__", self.pick(["ASCENDING", "DESCENDING"]))]
            sq.pop("endAt", None)
            sq["startAt"] = {"values": [self.pick([S("d01"), I(3), NULL])]}
        elif kind == "unary-on-name":
            add({"unaryFilter": {"field": FP("__name__"), "op": self.pick(["IS_NULL", "IS_NAN", "IS_NOT_NULL"])}})
        elif kind == "array-contains-on-name":
            add({"fieldFilter": {"field": FP("__name__"), "op": self.pick(["ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY"]),
                                 "value": self.pick([self.name_value(), ARR([self.name_value()])])}})
        elif kind == "two-not-equal":
            add({"compositeFilter": {"op": "AND", "filters": [
                {"fieldFilter": {"field": FP("n"), "op": "NOT_EQUAL", "value": I(1)}},
                {"unaryFilter": {"field": FP("a"), "op": "IS_NOT_NULL"}}]}})
        return kind

    def aggregation_query(self):
        q, sq, effective, _ = self.structured_query(allow_select=False)
        aggregations = []
        count = self.r.choices([1, 2, 3, 4, 5], [5, 4, 3, 1, 1])[0]
        aliases = ["total", "s", "avg_a", "x_1", "field_9", "sum", "Count", "field_2"]
        for _ in range(count):
            kind = self.pick(["count", "count", "sum", "sum", "avg", "avg"])
            if kind == "count":
                body = {"count": {"upTo": str(self.r.randint(1, 12))} if self.chance(0.3) else {}}
            else:
                path = self.pick(["a", "a", "n", "n", "c", "m.x", "b", "nope", "`x.y`", "tags"])
                body = {kind: {"field": FP(path)}}
            if self.chance(0.5):
                body["alias"] = self.pick(aliases)
            aggregations.append(body)
        invalid = None
        if self.chance(0.08):
            invalid = self.pick(["duplicate-alias", "no-aggregations", "bad-sum-path"])
            if invalid == "duplicate-alias":
                aggregations = [{"count": {}, "alias": "x"}, {"sum": {"field": FP("n")}, "alias": "x"}]
            elif invalid == "no-aggregations":
                aggregations = []
            else:
                aggregations = [{"sum": {"field": FP("a..b")}}]
        else:
            # Keep aliases unique (the emulator refuses duplicates, also field_N clashes).
            used, unaliased = set(), 0
            for agg in aggregations:
                if "alias" not in agg:
                    unaliased += 1
            implicit = {"field_%d" % i for i in range(1, unaliased + 1)}
            for agg in aggregations:
                if "alias" in agg:
                    if agg["alias"] in used or agg["alias"] in implicit:
                        del agg["alias"]
                    else:
                        used.add(agg["alias"])
            # Deleting aliases may create new field_N names that clash; drop aliases that do.
            unaliased = sum(1 for a in aggregations if "alias" not in a)
            implicit = {"field_%d" % i for i in range(1, unaliased + 1)}
            for agg in aggregations:
                if agg.get("alias") in implicit:
                    agg["alias"] = "alias_" + agg["alias"]
        return q, {"structuredQuery": sq, "aggregations": aggregations}, invalid

    def make_queries(self):
        queries = []
        for index in range(self.query_count):
            entry = {"id": "s%d-q%03d" % (self.seed, index)}
            c = self.r.random()
            if c < 0.15:
                q, saq, invalid = self.aggregation_query()
                entry["parent"] = q["parent"]
                entry["structuredAggregationQuery"] = saq
                if invalid:
                    entry["invalid"] = invalid
            else:
                q, sq, effective, limit_to_last = self.structured_query()
                if self.chance(0.1):
                    entry["invalid"] = self.invalidate(q, sq, effective)
                entry["parent"] = q["parent"]
                entry["structuredQuery"] = sq
                if limit_to_last:
                    entry["limitToLast"] = limit_to_last
            queries.append(entry)
        return queries

    def generate(self):
        self.make_dataset()
        queries = self.make_queries()
        return {
            "format": "hearth-query-conformance",
            "generatorVersion": GENERATOR_VERSION,
            "seed": self.seed,
            "project": PROJECT,
            "database": DATABASE,
            "documents": self.documents,
            "queries": queries,
        }


def generate(seed, query_count=DEFAULT_QUERIES):
    return Generator(seed, query_count).generate()


def dumps_case(case):
    """JSON with one document and one query per line, so that diffs of case files stay readable."""
    def one(value):
        return json.dumps(value, ensure_ascii=False, sort_keys=False, allow_nan=False)

    lines = ["{"]
    keys = list(case.keys())
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = case[key]
        if isinstance(value, list) and key in ("documents", "queries"):
            if not value:
                lines.append("  %s: []%s" % (one(key), comma))
                continue
            lines.append("  %s: [" % one(key))
            for j, item in enumerate(value):
                lines.append("    " + one(item) + ("," if j < len(value) - 1 else ""))
            lines.append("  ]" + comma)
        else:
            lines.append("  %s: %s%s" % (one(key), one(value), comma))
    lines.append("}")
    return "\n".join(lines) + "\n"


def coverage(cases):
    """How often each query feature occurs in `cases` (generated or recorded case dicts)."""
    counts = {}

    def bump(key):
        counts[key] = counts.get(key, 0) + 1

    def walk_filter(f, depth):
        if "compositeFilter" in f:
            bump("filter %s composite" % f["compositeFilter"]["op"])
            if depth > 0:
                bump("filter nested composite")
            for sub in f["compositeFilter"].get("filters", []):
                walk_filter(sub, depth + 1)
        elif "fieldFilter" in f:
            bump("filter field %s" % f["fieldFilter"]["op"])
            if f["fieldFilter"]["field"]["fieldPath"] == "__name__":
                bump("filter on __name__")
        elif "unaryFilter" in f:
            bump("filter unary %s" % f["unaryFilter"]["op"])

    for case in cases:
        for q in case["queries"]:
            if "structuredAggregationQuery" in q:
                saq = q["structuredAggregationQuery"]
                sq = saq["structuredQuery"]
                bump("aggregation query")
                for agg in saq["aggregations"]:
                    kind = [k for k in agg if k != "alias"][0]
                    bump("aggregation %s%s" % (kind, " up_to" if agg.get("count", {}).get("upTo") else ""))
                    bump("aggregation %s" % ("aliased" if "alias" in agg else "unaliased"))
            else:
                sq = q["structuredQuery"]
                bump("query")
            sel = sq["from"][0]
            bump("from %s%s" % ("collection group" if sel.get("allDescendants") else "collection",
                                " (all ids)" if not sel.get("collectionId") else ""))
            if q["parent"]:
                bump("parent is a document")
            if "where" in sq:
                walk_filter(sq["where"], 0)
            orders = sq.get("orderBy", [])
            if orders:
                bump("order_by x%d" % len(orders))
                for o in orders:
                    bump("order_by %s" % o.get("direction", "ASCENDING"))
                    if o["field"]["fieldPath"] == "__name__":
                        bump("order_by __name__")
            for key in ("startAt", "endAt"):
                if key in sq:
                    cursor = sq[key]
                    bump("%s before=%s" % (key, "true" if cursor.get("before") else "false"))
                    if len(cursor["values"]) < len(orders):
                        bump("partial cursor")
                    if any("referenceValue" in v for v in cursor["values"]):
                        bump("cursor with __name__ value")
            if "offset" in sq:
                bump("offset")
            if "limit" in sq:
                bump("limit")
            if "select" in sq:
                fields = [f["fieldPath"] for f in sq["select"].get("fields", [])]
                bump("select __name__ only" if fields in ([], ["__name__"]) else "select fields")
            if q.get("limitToLast"):
                bump("limit-to-last (%s client)" % q["limitToLast"])
            if q.get("invalid"):
                bump("invalid by construction")
            expected = q.get("expected")
            if expected:
                if "error" in expected:
                    bump("result: refused (%s)" % expected["error"]["code"])
                elif "aggregation" in expected:
                    bump("result: aggregation")
                elif expected["documents"]:
                    bump("result: documents")
                else:
                    bump("result: no documents")
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seed", type=int, nargs="?")
    parser.add_argument("--queries", type=int, default=DEFAULT_QUERIES)
    parser.add_argument("--out", help="output file (default: standard output)")
    parser.add_argument("--coverage", nargs="*", metavar="CASE_FILE",
                        help="print how often each feature occurs in these case files (default: cases/*.json)")
    args = parser.parse_args()
    if not 1 <= args.queries <= 100000:
        parser.error("--queries must be between 1 and 100000")
    if args.coverage is not None:
        import glob
        import os
        files = args.coverage or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                               "cases", "seed-*.json")))
        cases = []
        for path in files:
            with open(path, encoding="utf-8") as f:
                cases.append(json.load(f))
        counts = coverage(cases)
        print("%d case files, %d documents, %d queries" % (
            len(cases), sum(len(c["documents"]) for c in cases), sum(len(c["queries"]) for c in cases)))
        for key in sorted(counts):
            print("%6d  %s" % (counts[key], key))
        return
    if args.seed is None:
        parser.error("give a seed (or --coverage)")
    text = dumps_case(generate(args.seed, args.queries))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
