#!/usr/bin/env python3
"""Generates cases/*.json (deterministic). Verdicts are NOT written here: run `record.py --write`.

    generate.py             (re)writes cases/*.json; a case whose name, rules, documents and request
                            are unchanged keeps its recorded `expected`.
    generate.py --compare   prints the cases whose recorded verdict differs from the author's guess
                            (the guess is only a note for reviewing surprises; it is not stored).

Standard library only.
"""

import base64
import json
import os
import sys

sys.dont_write_bytecode = True   # no __pycache__ next to the cases
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record  # noqa: E402  (the case files' formatting)

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
PROJECT = "demo-rules-conformance"
DOCS_ROOT = "projects/%s/databases/(default)/documents" % PROJECT

ALLOW, DENY, UNSURE = "allow", "deny", None

# ---------------------------------------------------------------------------------------------
# Values in Firestore's REST JSON form


class Ts(str):
    """A timestampValue (RFC 3339)."""


class Ref(str):
    """A referenceValue, relative to the documents root."""


class Geo(tuple):
    """A geoPointValue (latitude, longitude)."""


class Raw(bytes):
    """A bytesValue."""


def val(x):
    if x is None:
        return {"nullValue": None}
    if isinstance(x, bool):
        return {"booleanValue": x}
    if isinstance(x, int):
        return {"integerValue": str(x)}
    if isinstance(x, float):
        return {"doubleValue": x}
    if isinstance(x, Ts):
        return {"timestampValue": str(x)}
    if isinstance(x, Ref):
        return {"referenceValue": DOCS_ROOT + "/" + str(x)}
    if isinstance(x, Geo):
        return {"geoPointValue": {"latitude": x[0], "longitude": x[1]}}
    if isinstance(x, Raw):
        return {"bytesValue": base64.b64encode(bytes(x)).decode()}
    if isinstance(x, str):
        return {"stringValue": x}
    if isinstance(x, (list, tuple)):
        return {"arrayValue": {"values": [val(v) for v in x]}} if x else {"arrayValue": {}}
    if isinstance(x, dict):
        return {"mapValue": {"fields": fields(x)}} if x else {"mapValue": {}}
    raise TypeError(x)


def fields(data):
    return {k: val(v) for k, v in data.items()}


def docs(mapping):
    return {path: fields(data) for path, data in mapping.items()}


# ---------------------------------------------------------------------------------------------
# Requests

ALICE = {"uid": "alice", "token": {"email": "alice@example.com", "email_verified": True}}
BOB = {"uid": "bob", "token": {"email": "bob@example.com", "email_verified": True}}
ANON = None


def get(path, auth=ALICE):
    return {"auth": auth, "kind": "get", "path": path}


def commit(writes, auth=ALICE):
    return {"auth": auth, "kind": "commit", "writes": writes}


def server_time(field):
    return {"fieldPath": field, "setToServerValue": "REQUEST_TIME"}


def increment(field, by):
    return {"fieldPath": field, "increment": val(by)}


def array_union(field, items):
    return {"fieldPath": field, "appendMissingElements": {"values": [val(v) for v in items]}}


def w_create(path, data, transforms=None):
    """A create: `currentDocument.exists = false`."""
    write = {"update": {"name": path, "fields": fields(data)}}
    if transforms:
        write["updateTransforms"] = transforms
    write["currentDocument"] = {"exists": False}
    return write


def w_set(path, data, transforms=None):
    """A set without precondition (create or update depending on the document)."""
    write = {"update": {"name": path, "fields": fields(data)}}
    if transforms:
        write["updateTransforms"] = transforms
    return write


def w_update(path, data, mask=None, transforms=None, exists=True):
    """An update of an existing document (`currentDocument.exists = true`), optionally masked."""
    write = {"update": {"name": path, "fields": fields(data)}}
    if mask is not None:
        write["updateMask"] = {"fieldPaths": mask}
    if transforms:
        write["updateTransforms"] = transforms
    if exists is not None:
        write["currentDocument"] = {"exists": exists}
    return write


def w_delete(path, exists=None):
    write = {"delete": path}
    if exists is not None:
        write["currentDocument"] = {"exists": exists}
    return write


def create(path, data, auth=ALICE, transforms=None):
    return commit([w_create(path, data, transforms)], auth)


def update(path, data, auth=ALICE, mask=None, transforms=None):
    return commit([w_update(path, data, mask, transforms)], auth)


def delete(path, auth=ALICE):
    return commit([w_delete(path)], auth)


OPS = {"==": "EQUAL", "!=": "NOT_EQUAL", "<": "LESS_THAN", "<=": "LESS_THAN_OR_EQUAL",
       ">": "GREATER_THAN", ">=": "GREATER_THAN_OR_EQUAL", "in": "IN", "not-in": "NOT_IN",
       "array-contains": "ARRAY_CONTAINS", "array-contains-any": "ARRAY_CONTAINS_ANY"}


def query(collection, where=(), limit=None, order=(), offset=None, group=False, parent="",
          auth=ALICE):
    sq = {"from": [{"collectionId": collection, "allDescendants": True}] if group
          else [{"collectionId": collection}]}
    filters = [{"fieldFilter": {"field": {"fieldPath": f}, "op": OPS[op], "value": val(v)}}
               for f, op, v in where]
    if len(filters) == 1:
        sq["where"] = filters[0]
    elif filters:
        sq["where"] = {"compositeFilter": {"op": "AND", "filters": filters}}
    if order:
        sq["orderBy"] = [{"field": {"fieldPath": f}, "direction": d} for f, d in order]
    if offset is not None:
        sq["offset"] = offset
    if limit is not None:
        sq["limit"] = limit
    return {"auth": auth, "kind": "query", "parent": parent, "structuredQuery": sq}


# ---------------------------------------------------------------------------------------------
# Rules


def ruleset(body, version="2"):
    head = "rules_version = '%s';\n" % version if version else ""
    lines = body.strip("\n").split("\n")
    indented = "\n".join(("    " + line) if line.strip() else "" for line in lines)
    return (head + "service cloud.firestore {\n  match /databases/{database}/documents {\n"
            + indented + "\n  }\n}\n")


# ---------------------------------------------------------------------------------------------
# Case collection

FILES = {}     # file stem -> list of cases
GUESSES = {}   # case name -> guess


def case(file, area, name, rules, request, documents=None, guess=UNSURE):
    full = "%s/%s" % (area, name)
    if full in GUESSES:
        raise SystemExit("duplicate case name: " + full)
    GUESSES[full] = guess
    entry = {"name": full, "area": area, "rules": rules}
    entry["documents"] = documents or {}
    entry["request"] = request
    FILES.setdefault(file, []).append(entry)


# Document used by the expression cases: `t/doc`, read with a `get` by alice.
T_DATA = {
    "s": "hello", "n": 5, "f": 2.5, "b": True, "nul": None, "neg": -7,
    "l": [1, 2, 3], "tags": ["red", "green"],
    "m": {"a": 1, "b": "x", "nested": {"c": 2}},
    "ts": Ts("2024-03-15T12:34:56.789Z"),
    "geo": Geo((48.8566, 2.3522)),
    "by": Raw(b"\x01\x02\x03"),
    "ref": Ref("users/alice"),
    "email": "alice@example.com",
    "badre": "(",
}
T_DOCS = docs({"t/doc": T_DATA})


def expr(file, area, name, expression, guess, documents=None, auth=ALICE, version="2",
         path="t/doc"):
    """A case whose verdict is whether `expression` holds for a get of t/doc."""
    rules = ruleset("match /t/{id} {\n  allow get: if %s;\n}" % expression, version)
    case(file, area, "%s: %s" % (name, expression), rules, get(path, auth),
         T_DOCS if documents is None else documents, guess)


def exprs(file, area, name, items, **kw):
    for expression, guess in items:
        expr(file, area, name, expression, guess, **kw)


# ---------------------------------------------------------------------------------------------
# operators.json


def operators():
    f, a = "operators", "operators"
    exprs(f, a, "arithmetic", [
        ("1 + 2 * 3 == 7", ALLOW),
        ("(1 + 2) * 3 == 9", ALLOW),
        ("1 + 2 * 3 == 9", DENY),
        ("10 - 4 - 3 == 3", ALLOW),
        ("2 * 3 % 4 == 2", ALLOW),
        ("7 / 2 == 3", ALLOW),
        ("-7 / 2 == -3", ALLOW),
        ("7 % 3 == 1", ALLOW),
        ("-7 % 3 == -1", ALLOW),
        ("7.0 / 2 == 3.5", ALLOW),
        ("1.5 * 2 == 3", ALLOW),
        ("0.1 + 0.2 == 0.3", DENY),
        ("-(3) == -3", ALLOW),
        ("-(-3) == 3", ALLOW),
        ("resource.data.n + 1 == 6", ALLOW),
        ("resource.data.neg * -1 == 7", ALLOW),
        ("resource.data.f * 2 == 5", ALLOW),
        ("1 / 0 == 0", DENY),
        ("1 % 0 == 0", DENY),
        ("1.0 / 0 > 1000000", UNSURE),
        ("9223372036854775807 + 1 < 0", UNSURE),
        ("9223372036854775807 > 9223372036854775806", ALLOW),
        ("-9223372036854775808 < 0", ALLOW),
        ("-9223372036854775807 - 2 < 0", DENY),
    ])
    exprs(f, a, "comparison", [
        ("1 == 1.0", ALLOW),
        ("1 < 1.5", ALLOW),
        ("2 >= 2 && 2 <= 2", ALLOW),
        ("3 > 4", DENY),
        ("'abc' < 'abd'", ALLOW),
        ("'B' < 'a'", ALLOW),
        ("'a' < 'B'", DENY),
        ("'1' == 1", DENY),
        ("'1' != 1", ALLOW),
        ("1 < 'a'", DENY),
        ("[1, 2] == [1, 2]", ALLOW),
        ("[1, 2] == [2, 1]", DENY),
        ("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}", ALLOW),
        ("null == null", ALLOW),
        ("resource.data.nul == null", ALLOW),
        ("resource.data.s != null", ALLOW),
        ("true == 1", DENY),
        ("[1] == [1.0]", DENY),
        ("{'a': 1} == {'a': 1.0}", DENY),
        ("[1, 1.0].toSet().size() == 1", ALLOW),
        ("[1, 2] < [1, 3]", UNSURE),
    ])
    exprs(f, a, "logic and precedence", [
        ("!false", ALLOW),
        ("!true", DENY),
        ("!(1 == 2)", ALLOW),
        ("true || false && false", ALLOW),
        ("(true || false) && false", DENY),
        ("false && true || true", ALLOW),
        ("false && (true || true)", DENY),
        ("1 < 2 == true", ALLOW),
        ("1 + 1 == 2 && 2 * 2 == 4", ALLOW),
        ("!false && false", DENY),
        ("1 + 2 in [3]", ALLOW),
        ("'x' + 'y' == 'xy' == true", ALLOW),
    ])
    exprs(f, a, "ternary", [
        ("(true ? 1 : 2) == 1", ALLOW),
        ("(false ? 1 : 2) == 1", DENY),
        ("(false ? 1 : true ? 2 : 3) == 2", ALLOW),
        ("resource.data.n > 3 ? true : false", ALLOW),
        ("resource.data.n > 9 ? true : resource.data.s == 'nope'", DENY),
        ("(1 ? true : false)", DENY),
    ])
    exprs(f, a, "in", [
        ("2 in [1, 2, 3]", ALLOW),
        ("4 in [1, 2, 3]", DENY),
        ("!(4 in [1, 2, 3])", ALLOW),
        ("'a' in {'a': 1}", ALLOW),
        ("'b' in {'a': 1}", DENY),
        ("'green' in resource.data.tags", ALLOW),
        ("'s' in resource.data", ALLOW),
        ("1 in [1.0]", DENY),
        ("1.0 in [1]", DENY),
        ("1 in [1.0].toSet()", ALLOW),
    ])
    exprs(f, a, "is", [
        ("1 is int", ALLOW),
        ("1 is number", ALLOW),
        ("1.5 is float", ALLOW),
        ("1.5 is number", ALLOW),
        ("1 is float", DENY),
        ("'s' is string", ALLOW),
        ("'s' is int", DENY),
        ("true is bool", ALLOW),
        ("[1] is list", ALLOW),
        ("{'a': 1} is map", ALLOW),
        ("[1].toSet() is set", DENY),
        ("[1].toSet() is list", DENY),
        ("{'a': 1}.diff({}) is map_diff", ALLOW),
        ("resource.data.ts is timestamp", ALLOW),
        ("request.time is timestamp", ALLOW),
        ("duration.value(1, 's') is duration", ALLOW),
        ("resource.data.geo is latlng", ALLOW),
        ("resource.data.by is bytes", ALLOW),
        ("b'ab' is bytes", ALLOW),
        ("resource.data.ref is path", ALLOW),
        ("request.path is path", ALLOW),
        ("resource.data.m is map", ALLOW),
        ("resource.data.l is list", ALLOW),
        ("resource.data.n is int && resource.data.f is float", ALLOW),
        ("resource.data.nul is string", DENY),
        ("resource.data.missing is string", DENY),
        ("!(resource.data.s is int)", ALLOW),
    ])
    exprs(f, a, "indexing", [
        ("[1, 2, 3][1] == 2", ALLOW),
        ("{'a': {'b': 1}}.a.b == 1", ALLOW),
        ("{'a': 1}['a'] == 1", ALLOW),
        ("resource.data['m']['nested']['c'] == 2", ALLOW),
        ("resource.data.m.nested.c == 3", DENY),
    ])
    # Literals and comments.
    exprs(f, a, "literals", [
        (r"'a\'b'.size() == 3", ALLOW),
        ('"double" == \'double\'', ALLOW),
        (r"'\n'.size() == 1", ALLOW),
        (r"'\t\r'.size() == 2", ALLOW),
        ('"\\"" == \'"\'', ALLOW),
        (r"'\101' == 'A'", UNSURE),
        (r"'\\'.size() == 1", ALLOW),
        (r"'\u00e9' == 'é'", ALLOW),
        (r"'\x41' == 'A'", UNSURE),
        ("0.5 == .5", UNSURE),
        ("-0 == 0", ALLOW),
    ])
    rules = ruleset("match /t/{id} {\n  // a line comment\n  allow get: /* a block\n  comment */ if true // trailing\n    ;\n}")
    case(f, a, "comments: both styles around a condition", rules, get("t/doc"), T_DOCS, ALLOW)
    rules = ruleset("match /t/{id} {\n  /* allow get: if true; */\n  // allow get: if true;\n  allow list: if true;\n}")
    case(f, a, "comments: commented-out allows grant nothing", rules, get("t/doc"), T_DOCS, DENY)
    rules = ruleset("match /t/{id} {\n  allow get;\n}")
    case(f, a, "allow without a condition grants", rules, get("t/doc"), T_DOCS, ALLOW)


# ---------------------------------------------------------------------------------------------
# strings.json


def strings():
    f, a = "strings", "strings"
    exprs(f, a, "size", [
        ("'hello'.size() == 5", ALLOW),
        ("'hello'.size() == 4", DENY),
        ("''.size() == 0", ALLOW),
        ("'héllo'.size() == 5", ALLOW),
        ("'😀'.size() == 1", DENY),
        ("'😀'.size() == 2", ALLOW),
        ("resource.data.s.size() > 3", ALLOW),
    ])
    exprs(f, a, "case and trim", [
        ("'Hello'.lower() == 'hello'", ALLOW),
        ("'Hello'.upper() == 'HELLO'", ALLOW),
        ("'Hello'.lower() == 'Hello'", DENY),
        ("'  hi  '.trim() == 'hi'", ALLOW),
        ("' hi'.trim().size() == 3", DENY),
        ("'ÉCOLE'.lower() == 'école'", DENY),
        ("'É'.lower() == 'É'", ALLOW),
        ("'Straße'.upper() == 'STRAßE'", UNSURE),
    ])
    exprs(f, a, "matches", [
        ("'abc'.matches('a.c')", ALLOW),
        ("'abcd'.matches('abc')", DENY),
        ("'xabc'.matches('abc')", DENY),
        ("'abc'.matches('^abc$')", ALLOW),
        ("'ABC'.matches('(?i)abc')", ALLOW),
        (r"'a1'.matches('[a-z]\\d')", ALLOW),
        (r"'aa'.matches('[a-z]\\d')", DENY),
        ("'user@example.com'.matches('.*@example[.]com')", ALLOW),
        ("'user@evil.com'.matches('.*@example[.]com')", DENY),
        ("'x'.matches(resource.data.badre)", DENY),
        ("'x'.matches(resource.data.badre) || true", ALLOW),
        ("resource.data.email.matches('^[^@]+@[^@]+$')", ALLOW),
        ("'a\\nb'.matches('a.b')", UNSURE),
    ])
    exprs(f, a, "split", [
        ("'a,b,c'.split(',') == ['a', 'b', 'c']", ALLOW),
        ("'a,b,c'.split(',').size() == 2", DENY),
        ("'a.b'.split('.').size() == 2", DENY),
        ("'a.b'.split('.') == ['']", UNSURE),
        ("'a.b'.split('[.]').size() == 2", ALLOW),
        ("'a,b,'.split(',').size() == 2", UNSURE),
        (r"'a1b22c'.split('\\d+') == ['a', 'b', 'c']", ALLOW),
        ("'a,,b'.split(',').size() == 3", ALLOW),
        ("'abc'.split(',') == ['abc']", ALLOW),
    ])
    exprs(f, a, "replace", [
        ("'aaa'.replace('a', 'b') == 'bbb'", ALLOW),
        ("'a.b'.replace('.', '-') == 'a-b'", DENY),
        ("'a.b'.replace('.', '-') == '---'", ALLOW),
        ("'a-b-c'.replace('-', '') == 'abc'", ALLOW),
        ("'abc'.replace('x', 'y') == 'abcd'", DENY),
        ("'abc'.replace('(b)', '[$1]') == 'a[b]c'", UNSURE),
    ])
    exprs(f, a, "toUtf8", [
        ("'abc'.toUtf8() == b'abc'", ALLOW),
        ("'é'.toUtf8().size() == 2", ALLOW),
        ("'abc'.toUtf8().size() == 4", DENY),
    ])
    exprs(f, a, "index and range", [
        ("'hello'[0] == 'h'", ALLOW),
        ("'hello'[1:3] == 'el'", ALLOW),
        ("'hello'[1:3] == 'ell'", DENY),
        ("'hello'[10] == 'x'", DENY),
        ("'hello'[4] == 'o'", ALLOW),
        ("'hello'[0:0] == ''", DENY),
        ("'hello'[2:2] == ''", UNSURE),
        ("'hello'[2:] == 'llo'", UNSURE),
    ])
    exprs(f, a, "concatenation and conversion", [
        ("'a' + 'b' + 'c' == 'abc'", ALLOW),
        ("'a' + 1 == 'a1'", DENY),
        ("'n=' + string(resource.data.n) == 'n=5'", ALLOW),
        ("'Hello World'.lower().matches('.*world')", ALLOW),
    ])


# ---------------------------------------------------------------------------------------------
# lists_maps_sets.json


def lists_maps_sets():
    f = "lists_maps_sets"
    exprs(f, "lists", "list", [
        ("[1, 2, 3].size() == 3", ALLOW),
        ("[].size() == 0", ALLOW),
        ("[1, 2, 3].hasAll([1, 2])", ALLOW),
        ("[1, 2, 3].hasAll([4])", DENY),
        ("[1, 2].hasAny([2, 5])", ALLOW),
        ("[1, 2].hasAny([])", DENY),
        ("[1, 2].hasOnly([1, 2, 3])", ALLOW),
        ("[1, 4].hasOnly([1, 2, 3])", DENY),
        ("[].hasOnly([1])", ALLOW),
        ("['a', 'b'].join('-') == 'a-b'", ALLOW),
        ("[1, 2].join(',') == '1,2'", UNSURE),
        ("[1, 2].concat([3]) == [1, 2, 3]", ALLOW),
        ("[1, 2] + [3] == [1, 2, 3]", DENY),
        ("[1, 2, 3, 2].removeAll([2]) == [1, 3]", ALLOW),
        ("[1, 1, 2].toSet().size() == 2", ALLOW),
        ("[1, 2, 3][0:2] == [1, 2]", ALLOW),
        ("[1, 2, 3][1:1] == []", UNSURE),
        ("[1, 2, 3][5] == 1", DENY),
        ("resource.data.l[2] == 3", ALLOW),
        ("resource.data.l.size() == 4", DENY),
        ("resource.data.tags.hasAny(['blue', 'red'])", ALLOW),
        ("resource.data.tags.hasAll(['blue', 'red'])", DENY),
        ("[1, 'a', true, null].size() == 4", ALLOW),
        ("[1, 2, 3][-1] == 3", UNSURE),
    ])
    exprs(f, "maps", "map", [
        ("{'a': 1}.keys() == ['a']", ALLOW),
        ("{'a': 1, 'b': 2}.size() == 2", ALLOW),
        ("{'a': 1}.values() == [1]", ALLOW),
        ("{'a': 1}.get('a', 0) == 1", ALLOW),
        ("{'a': 1}.get('z', 0) == 0", ALLOW),
        ("{'a': 1}.get('z', 0) == 1", DENY),
        ("{'a': {'b': 2}}.get(['a', 'b'], 0) == 2", ALLOW),
        ("{'a': {'b': 2}}.get(['a', 'c'], 7) == 7", ALLOW),
        ("{'a': 1}.z == 1", DENY),
        ("{'a': 1}['z'] == 1", DENY),
        ("resource.data.m.nested.c == 2", ALLOW),
        ("resource.data.m.keys().hasAll(['a', 'b'])", ALLOW),
        ("resource.data.m.keys().hasOnly(['a'])", DENY),
        ("'nested' in resource.data.m", ALLOW),
        ("resource.data.m.size() == 3", ALLOW),
        ("resource.data.keys().hasAll(['s', 'n', 'm'])", ALLOW),
        ("resource.data.get('missing', 'dflt') == 'dflt'", ALLOW),
        ("resource.data.get(['m', 'nested', 'c'], 0) == 2", ALLOW),
        ("{}.size() == 0", ALLOW),
        ("{'a': 1, 'b': 2}.keys().size() == 3", DENY),
    ])
    exprs(f, "sets", "set", [
        ("[1, 2].toSet() == [2, 1].toSet()", ALLOW),
        ("[1, 2].toSet() == [1, 2]", DENY),
        ("[1, 2].toSet().union([3].toSet()) == [1, 2, 3].toSet()", ALLOW),
        ("[1, 2, 3].toSet().intersection([2, 3, 4].toSet()) == [2, 3].toSet()", ALLOW),
        ("[1, 2, 3].toSet().difference([2].toSet()) == [1, 3].toSet()", ALLOW),
        ("[1, 2, 3].toSet().difference([2].toSet()) == [1].toSet()", DENY),
        ("[1, 2].toSet().hasAll([1])", ALLOW),
        ("[1, 2].toSet().hasAll([1].toSet())", ALLOW),
        ("[1, 2].toSet().hasAny([3])", DENY),
        ("[1, 2].toSet().hasOnly([1, 2, 3])", ALLOW),
        ("[1, 5].toSet().hasOnly([1, 2, 3])", DENY),
        ("2 in [1, 2].toSet()", ALLOW),
        ("5 in [1, 2].toSet()", DENY),
        ("[1, 2, 2].toSet().size() == 2", ALLOW),
        ("resource.data.tags.toSet().union(['blue'].toSet()).size() == 3", ALLOW),
    ])


# ---------------------------------------------------------------------------------------------
# mapdiff.json


def mapdiff():
    f, a = "mapdiff", "mapdiff"
    exprs(f, a, "literal diff", [
        ("{'a': 1, 'b': 2}.diff({'a': 1, 'b': 3}).affectedKeys() == ['b'].toSet()", ALLOW),
        ("{'a': 1, 'c': 1}.diff({'a': 1, 'b': 1}).addedKeys() == ['c'].toSet()", ALLOW),
        ("{'a': 1, 'c': 1}.diff({'a': 1, 'b': 1}).removedKeys() == ['b'].toSet()", ALLOW),
        ("{'a': 1, 'c': 1}.diff({'a': 1, 'b': 1}).addedKeys() == ['b'].toSet()", DENY),
        ("{'a': 1, 'b': 2}.diff({'a': 9, 'b': 2}).changedKeys() == ['a'].toSet()", ALLOW),
        ("{'a': 1, 'b': 2}.diff({'a': 9, 'b': 2}).unchangedKeys() == ['b'].toSet()", ALLOW),
        ("{'a': 1, 'c': 3}.diff({'a': 2, 'b': 2}).affectedKeys() == ['a', 'b', 'c'].toSet()", ALLOW),
        ("{'a': 1}.diff({'a': 1}).affectedKeys().size() == 0", ALLOW),
        ("{'a': {'x': 1}}.diff({'a': {'x': 2}}).changedKeys() == ['a'].toSet()", ALLOW),
        ("{'a': 1}.diff({'a': 1.0}).changedKeys().size() == 0", UNSURE),
        ("{'a': 1}.diff({'a': '1'}).changedKeys() == ['a'].toSet()", ALLOW),
        ("{'a': null}.diff({}).addedKeys() == ['a'].toSet()", ALLOW),
        ("{}.diff({'a': 1}).unchangedKeys().size() == 1", DENY),
        ("{'a': 1}.diff({'a': 1}).affectedKeys() is set", DENY),
        ("{'a': 1}.diff({'a': 1}) is map_diff", ALLOW),
    ])
    base = {"title": "Hello", "body": "text", "likes": 0, "owner": "alice",
            "settings": {"theme": "dark", "lang": "en"}}
    seeded = docs({"posts/p1": base})
    only_likes = ruleset("match /posts/{id} {\n  allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['likes']);\n}")
    cases = [
        ("masked update of likes only", {"likes": 1}, ["likes"], ALLOW),
        ("masked update of title", {"title": "Changed"}, ["title"], DENY),
        ("masked update of title to its current value", {"title": "Hello"}, ["title"], ALLOW),
        ("masked update of likes and title", {"likes": 1, "title": "Changed"}, ["likes", "title"], DENY),
        ("masked removal of body (in mask, absent from fields)", {}, ["body"], DENY),
        ("masked addition of a new field", {"extra": 1}, ["extra"], DENY),
        ("full set with only likes changed", dict(base, likes=5), None, ALLOW),
        ("full set that drops body", {k: v for k, v in base.items() if k != "body"}, None, DENY),
        ("full set that changes likes from int 0 to float 0.0", dict(base, likes=0.0), None, UNSURE),
        ("empty masked update", {}, [], ALLOW),
    ]
    for name, data, mask, guess in cases:
        case(f, a, "affectedKeys hasOnly likes: " + name, only_likes,
             update("posts/p1", data, mask=mask), seeded, guess)
    rules = ruleset("match /posts/{id} {\n  allow update: if request.resource.data.diff(resource.data).addedKeys().size() == 0\n                && request.resource.data.diff(resource.data).removedKeys().size() == 0;\n}")
    case(f, a, "no added or removed keys: change a value", rules,
         update("posts/p1", {"likes": 3}, mask=["likes"]), seeded, ALLOW)
    case(f, a, "no added or removed keys: add a field", rules,
         update("posts/p1", {"extra": True}, mask=["extra"]), seeded, DENY)
    case(f, a, "no added or removed keys: remove a field", rules,
         update("posts/p1", {}, mask=["body"]), seeded, DENY)
    rules = ruleset("match /posts/{id} {\n  allow update: if !request.resource.data.diff(resource.data).changedKeys().hasAny(['owner', 'title']);\n}")
    case(f, a, "changedKeys excludes owner and title: change body", rules,
         update("posts/p1", {"body": "new"}, mask=["body"]), seeded, ALLOW)
    case(f, a, "changedKeys excludes owner and title: change owner", rules,
         update("posts/p1", {"owner": "bob"}, mask=["owner"]), seeded, DENY)
    case(f, a, "changedKeys excludes owner and title: remove owner (removed, not changed)", rules,
         update("posts/p1", {}, mask=["owner"]), seeded, ALLOW)
    rules = ruleset("match /posts/{id} {\n  allow update: if request.resource.data.diff(resource.data).unchangedKeys().hasAll(['owner', 'title', 'body']);\n}")
    case(f, a, "unchangedKeys keeps owner title body: change likes", rules,
         update("posts/p1", {"likes": 9}, mask=["likes"]), seeded, ALLOW)
    case(f, a, "unchangedKeys keeps owner title body: change title", rules,
         update("posts/p1", {"title": "x"}, mask=["title"]), seeded, DENY)
    rules = ruleset("match /posts/{id} {\n  allow update: if request.resource.data.diff(resource.data).removedKeys().hasOnly(['body']);\n}")
    case(f, a, "removedKeys hasOnly body: remove body", rules,
         update("posts/p1", {}, mask=["body"]), seeded, ALLOW)
    case(f, a, "removedKeys hasOnly body: remove title", rules,
         update("posts/p1", {}, mask=["title"]), seeded, DENY)
    rules = ruleset("match /posts/{id} {\n  allow update: if request.resource.data.settings.diff(resource.data.settings).affectedKeys().hasOnly(['theme']);\n}")
    case(f, a, "nested map diff: settings.theme via a dotted mask", rules,
         update("posts/p1", {"settings": {"theme": "light"}}, mask=["settings.theme"]), seeded, ALLOW)
    case(f, a, "nested map diff: settings.lang via a dotted mask", rules,
         update("posts/p1", {"settings": {"lang": "fr"}}, mask=["settings.lang"]), seeded, DENY)
    case(f, a, "nested map diff: replacing settings drops lang", rules,
         update("posts/p1", {"settings": {"theme": "light"}}, mask=["settings"]), seeded, DENY)
    rules = ruleset("match /posts/{id} {\n  allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['settings']);\n}")
    case(f, a, "top-level affectedKeys of a dotted mask is the top key", rules,
         update("posts/p1", {"settings": {"theme": "light"}}, mask=["settings.theme"]), seeded, ALLOW)


# ---------------------------------------------------------------------------------------------
# timestamps_durations.json


def timestamps_durations():
    f = "timestamps_durations"
    exprs(f, "timestamps", "timestamp parts", [
        ("resource.data.ts.year() == 2024", ALLOW),
        ("resource.data.ts.month() == 3", ALLOW),
        ("resource.data.ts.day() == 15", ALLOW),
        ("resource.data.ts.hours() == 12", ALLOW),
        ("resource.data.ts.minutes() == 34", ALLOW),
        ("resource.data.ts.seconds() == 56", ALLOW),
        ("resource.data.ts.nanos() == 789000000", ALLOW),
        ("resource.data.ts.dayOfWeek() == 5", ALLOW),
        ("resource.data.ts.dayOfYear() == 75", ALLOW),
        ("resource.data.ts.toMillis() == 1710506096789", ALLOW),
        ("resource.data.ts.toMillis() == 1710506096000", DENY),
        ("resource.data.ts.year() == 2023", DENY),
        ("resource.data.ts.date() == timestamp.date(2024, 3, 15)", ALLOW),
        ("resource.data.ts.time() == duration.time(12, 34, 56, 789000000)", ALLOW),
    ])
    exprs(f, "timestamps", "timestamp functions", [
        ("timestamp.date(2024, 3, 15) < resource.data.ts", ALLOW),
        ("timestamp.value(1710506096789) == resource.data.ts", ALLOW),
        ("timestamp.value(0).year() == 1970", ALLOW),
        ("timestamp.date(2024, 2, 29).dayOfYear() == 60", ALLOW),
        ("timestamp.date(2024, 2, 30) > timestamp.date(2024, 1, 1)", UNSURE),
        ("timestamp.date(2024, 3, 17).dayOfWeek() == 7", ALLOW),
        ("resource.data.ts > 'a'", DENY),
    ])
    exprs(f, "timestamps", "timestamp arithmetic", [
        ("resource.data.ts + duration.value(1, 'd') > resource.data.ts", ALLOW),
        ("resource.data.ts - timestamp.date(2024, 3, 15) == duration.time(12, 34, 56, 789000000)", ALLOW),
        ("(timestamp.date(2024, 3, 16) - timestamp.date(2024, 3, 15)).seconds() == 86400", ALLOW),
        ("timestamp.date(2024, 3, 15) + duration.value(36, 'h') == timestamp.date(2024, 3, 16) + duration.value(12, 'h')", ALLOW),
        ("resource.data.ts - duration.value(1, 'd') > resource.data.ts", DENY),
    ])
    exprs(f, "timestamps", "request.time", [
        ("request.time > timestamp.date(2020, 1, 1)", ALLOW),
        ("request.time < timestamp.date(2000, 1, 1)", DENY),
        ("request.time - duration.value(1, 'h') < request.time", ALLOW),
        ("request.time == request.time", ALLOW),
        ("request.time > resource.data.ts", ALLOW),
        ("request.time.year() >= 2024", ALLOW),
    ])
    exprs(f, "durations", "duration", [
        ("duration.value(90, 'm') == duration.time(1, 30, 0, 0)", ALLOW),
        ("duration.value(1, 'w') == duration.value(7, 'd')", ALLOW),
        ("duration.value(1, 'h') == duration.value(61, 'm')", DENY),
        ("duration.value(1500, 'ms').seconds() == 1", ALLOW),
        ("duration.value(1500, 'ms').nanos() == 500000000", ALLOW),
        ("duration.value(1, 'ns').nanos() == 1", ALLOW),
        ("duration.value(2, 's').seconds() == 3", DENY),
        ("duration.abs(duration.value(-5, 's')) == duration.value(5, 's')", ALLOW),
        ("duration.value(1, 'x') == duration.value(1, 's')", DENY),
        ("duration.value(1.5, 'h') == duration.value(90, 'm')", UNSURE),
        ("duration.value(1, 's') < duration.value(2, 's')", ALLOW),
        ("duration.value(1, 's') + duration.value(1, 's') == duration.value(2, 's')", UNSURE),
        ("duration.value(-90, 's').seconds() == -90", ALLOW),
        ("duration.time(0, 0, 1, 5).nanos() == 5", ALLOW),
    ])


# ---------------------------------------------------------------------------------------------
# math_conversions.json


def math_conversions():
    f = "math_conversions"
    exprs(f, "math", "math", [
        ("math.abs(-3) == 3", ALLOW),
        ("math.abs(-2.5) == 2.5", ALLOW),
        ("math.abs(-3) == -3", DENY),
        ("math.ceil(1.2) == 2", ALLOW),
        ("math.floor(1.8) == 1", ALLOW),
        ("math.floor(-1.2) == -2", ALLOW),
        ("math.floor(1.8) is int", DENY),
        ("math.floor(1.8) is float", ALLOW),
        ("math.round(2.5) is int", ALLOW),
        ("math.sqrt(16) is float", ALLOW),
        ("math.abs(-3) is int", ALLOW),
        ("math.abs(-2.5) is float", ALLOW),
        ("math.ceil(1.2) is float", ALLOW),
        ("math.pow(2, 10) is float", ALLOW),
        ("math.round(2.5) == 3", ALLOW),
        ("math.round(-2.5) == -3", DENY),
        ("math.round(-2.5) == -2", ALLOW),
        ("math.round(2.4) == 3", DENY),
        ("math.sqrt(16) == 4", ALLOW),
        ("math.sqrt(2) > 1.41 && math.sqrt(2) < 1.42", ALLOW),
        ("math.pow(2, 10) == 1024", ALLOW),
        ("math.pow(2, 0.5) > 1.41", ALLOW),
        ("math.pow(2, 3) == 9", DENY),
        ("math.isNaN(math.sqrt(-1))", UNSURE),
        ("math.isNaN(1.0)", DENY),
        ("math.abs('a') == 1", DENY),
        ("math.ceil(resource.data.f) == 3", ALLOW),
    ])
    exprs(f, "conversions", "int", [
        ("int('42') == 42", ALLOW),
        ("int('-42') == -42", ALLOW),
        ("int(3.9) == 3", ALLOW),
        ("int(-3.9) == -3", ALLOW),
        ("int('abc') == 0", DENY),
        ("int('4.2') == 4", UNSURE),
        ("int(2.0) is int", ALLOW),
        ("int(resource.data.s) == 0", DENY),
        ("int(true) == 1", UNSURE),
    ])
    exprs(f, "conversions", "float", [
        ("float('1.5') == 1.5", ALLOW),
        ("float(2) == 2.0", ALLOW),
        ("float(2) is float", ALLOW),
        ("float('abc') == 0", DENY),
        ("float(resource.data.n) / 2 == 2.5", ALLOW),
    ])
    exprs(f, "conversions", "string", [
        ("string(42) == '42'", ALLOW),
        ("string(1.5) == '1.5'", ALLOW),
        ("string(1.0) == '1.0'", UNSURE),
        ("string(true) == 'true'", ALLOW),
        ("string(null) == 'null'", UNSURE),
        ("string(-7) == '-7'", ALLOW),
        ("string([1, 2]) == '[1, 2]'", UNSURE),
        ("string(42) == 42", DENY),
        ("string(resource.data.b) == 'false'", DENY),
    ])


# ---------------------------------------------------------------------------------------------
# paths_latlng_bytes_hashing.json


def paths_latlng_bytes_hashing():
    f = "paths_latlng_bytes_hashing"
    exprs(f, "paths", "path", [
        ("path('/databases/' + database + '/documents/t/doc') == /databases/$(database)/documents/t/doc", ALLOW),
        ("request.path == /databases/$(database)/documents/t/doc", ALLOW),
        ("request.path == /databases/$(database)/documents/t/other", DENY),
        ("resource['__name__'] == /databases/$(database)/documents/t/doc", ALLOW),
        ("resource.id == 'doc'", ALLOW),
        ("resource.id == 'other'", DENY),
        ("resource.data.ref == /databases/$(database)/documents/users/alice", ALLOW),
        ("resource.data.ref == /databases/$(database)/documents/users/bob", DENY),
        ("resource.data.ref[4] == 'alice'", UNSURE),
        ("request.path[3] == 't'", UNSURE),
        ("request.path == '/databases/(default)/documents/t/doc'", DENY),
        ("string(request.path) == '/databases/(default)/documents/t/doc'", UNSURE),
        ("/a/b == /a/b", ALLOW),
        ("/a/b == /a/c", DENY),
        ("path('/a/{x}').bind({'x': 'b'}) == /a/b", UNSURE),
        ("/databases/$(database)/documents/users/$(request.auth.uid) == resource.data.ref", ALLOW),
        ("request.path[request.path.size() - 1] == 'doc'", UNSURE),
    ])
    exprs(f, "latlng", "latlng", [
        ("latlng.value(48.8566, 2.3522) == resource.data.geo", ALLOW),
        ("latlng.value(48.8566, 2.0) == resource.data.geo", DENY),
        ("resource.data.geo.latitude() == 48.8566", ALLOW),
        ("resource.data.geo.longitude() == 2.3522", ALLOW),
        ("resource.data.geo.longitude() > 3", DENY),
        ("resource.data.geo.distance(latlng.value(51.5074, -0.1278)) > 300000 && resource.data.geo.distance(latlng.value(51.5074, -0.1278)) < 400000", ALLOW),
        ("resource.data.geo.distance(resource.data.geo) == 0", ALLOW),
        ("latlng.value(0, 0) is latlng", ALLOW),
        ("latlng.value(100, 0) is latlng", UNSURE),
    ])
    exprs(f, "bytes", "bytes", [
        ("b'abc'.size() == 3", ALLOW),
        (r"b'\x01\x02'.size() == 2", ALLOW),
        ("resource.data.by.size() == 3", ALLOW),
        (r"resource.data.by == b'\x01\x02\x03'", ALLOW),
        (r"resource.data.by == b'\x01\x02'", DENY),
        ("b'abc'.toBase64() == 'YWJj'", ALLOW),
        ("b'abc'.toBase64() == 'YWJk'", DENY),
        (r"b'\xff\x0a'.toHexString() == 'FF0A'", UNSURE),
        (r"b'\xff\x0a'.toHexString().lower() == 'ff0a'", ALLOW),
        ("b'abc' == 'abc'.toUtf8()", ALLOW),
        ("b'abc' < b'abd'", UNSURE),
        ("b'abc' == 'abc'", DENY),
    ])
    exprs(f, "hashing", "hashing", [
        ("hashing.md5('abc').toHexString().lower() == '900150983cd24fb0d6963f7d28e17f72'", ALLOW),
        ("hashing.md5('abc').toHexString().lower() == '900150983cd24fb0d6963f7d28e17f73'", DENY),
        ("hashing.sha256('abc').toHexString().lower() == 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'", ALLOW),
        ("hashing.sha256(b'abc') == hashing.sha256('abc')", ALLOW),
        ("hashing.sha256('abc') == hashing.sha256('abd')", DENY),
        ("hashing.crc32('abc').toHexString().lower() == '352441c2'", DENY),
        ("hashing.crc32('abc').toHexString() == 'C2412435'", ALLOW),
        ("hashing.crc32c('abc').toHexString().lower() == '364b3fb7'", DENY),
        ("hashing.crc32c('abc').toHexString() == 'B73F4B36'", ALLOW),
        ("hashing.crc32('abc').size() == 4", ALLOW),
        ("hashing.md5('abc').size() == 16", ALLOW),
        ("hashing.sha256(resource.data.by).size() == 32", ALLOW),
        ("hashing.md5(1).size() == 16", DENY),
        ("hashing.sha256('abc') is bytes", ALLOW),
    ])
    exprs(f, "debug", "debug", [
        ("debug(true)", ALLOW),
        ("debug(false)", DENY),
        ("debug(1) == 1", ALLOW),
        ("debug(resource.data.s) == 'hello'", ALLOW),
        ("debug(resource.data.missing) == 1 || true", ALLOW),
    ])


# ---------------------------------------------------------------------------------------------
# errors.json


def errors():
    f, a = "errors", "errors"
    M = "resource.data.missing == 1"
    exprs(f, a, "missing field absorption", [
        (M, DENY),
        (M + " || true", ALLOW),
        ("true || " + M, ALLOW),
        ("false || " + M, DENY),
        (M + " || false", DENY),
        (M + " && false", DENY),
        ("false && " + M, DENY),
        (M + " && true", DENY),
        ("true && " + M, DENY),
        ("!(%s && false)" % M, UNSURE),
        ("!(false && %s)" % M, ALLOW),
        ("!(%s || false)" % M, DENY),
        ("!(%s || true)" % M, DENY),
        ("(%s && false) == false" % M, UNSURE),
        ("(%s || true) && true" % M, ALLOW),
        ("(%s && false) || true" % M, ALLOW),
        (M + " || resource.data.missing2 == 2", DENY),
        ("!resource.data.missing", DENY),
        ("(%s) == false" % M, DENY),
        ("resource.data.missing != 1", DENY),
        ("resource.data.missing in [1]", DENY),
        ("resource.data.missing.x == 1 || true", ALLOW),
    ])
    exprs(f, a, "null and presence", [
        ("resource.data.nul == null", ALLOW),
        ("resource.data.nul.x == 1", DENY),
        ("'missing' in resource.data", DENY),
        ("!('missing' in resource.data)", ALLOW),
        ("!('missing' in resource.data) || resource.data.missing > 0", ALLOW),
        ("'missing' in resource.data && resource.data.missing > 0", DENY),
        ("resource.data.get('missing', 0) == 0", ALLOW),
        ("resource.data.missing == null", DENY),
    ])
    exprs(f, a, "other runtime errors", [
        ("1 / 0 == 0 || true", ALLOW),
        ("'a' + 1 == 'a1' || true", ALLOW),
        ("[1][5] == 1 || true", ALLOW),
        ("(resource.data.missing == 1 ? true : true)", DENY),
        ("true ? true : resource.data.missing", ALLOW),
        ("false ? resource.data.missing : true", ALLOW),
        ("request.resource.data.x == 1", DENY),
        ("request.resource == null", DENY),
        ("int('x') == 1 || int('2') == 2", ALLOW),
        ("resource.data.s > 1", DENY),
        ("resource.data.s > 1 || true", ALLOW),
        ("resource.data.s.size() || true", UNSURE),
        ("resource.data.n", DENY),
        ("resource.data.n || true", UNSURE),
        ("resource.data.n && false", UNSURE),
        ("!(resource.data.n && false)", UNSURE),
        ("!(resource.data.missing == 1 && true)", DENY),
        ("(resource.data.missing == 1 || true) == true", ALLOW),
        ("!(false && resource.data.n)", ALLOW),
        ("resource.data.s == 'hello' && resource.data.n", DENY),
    ])
    # Errors in one allow do not spoil another allow.
    rules = ruleset("match /t/{id} {\n  allow get: if resource.data.missing == 1;\n  allow get: if true;\n}")
    case(f, a, "an error in one allow, another allow holds", rules, get("t/doc"), T_DOCS, ALLOW)
    rules = ruleset("match /t/{id} {\n  allow get: if resource.data.missing == 1;\n  allow get: if false;\n}")
    case(f, a, "an error in one allow, the other is false", rules, get("t/doc"), T_DOCS, DENY)
    rules = ruleset("match /t/{id} {\n  allow get: if resource.data.missing == 1;\n}\nmatch /{doc=**} {\n  allow read: if true;\n}")
    case(f, a, "an error in one match, another match allows", rules, get("t/doc"), T_DOCS, ALLOW)
    rules = ruleset("function bad() {\n  return resource.data.missing == 1;\n}\nmatch /t/{id} {\n  allow get: if bad() || true;\n}")
    case(f, a, "an error inside a function, absorbed by || true", rules, get("t/doc"), T_DOCS, ALLOW)
    rules = ruleset("function bad() {\n  return resource.data.missing == 1;\n}\nmatch /t/{id} {\n  allow get: if !bad();\n}")
    case(f, a, "!function() whose body errors", rules, get("t/doc"), T_DOCS, DENY)
    # resource is null for a missing document.
    rules = ruleset("match /t/{id} {\n  allow get: if resource == null;\n}")
    case(f, a, "missing document: resource == null", rules, get("t/none"), T_DOCS, ALLOW)
    case(f, a, "existing document: resource == null", rules, get("t/doc"), T_DOCS, DENY)
    rules = ruleset("match /t/{id} {\n  allow get: if resource.data.s == 'hello';\n}")
    case(f, a, "missing document: resource.data.s errors", rules, get("t/none"), T_DOCS, DENY)
    rules = ruleset("match /t/{id} {\n  allow get: if resource.data.s == 'hello' || true;\n}")
    case(f, a, "missing document: resource.data error absorbed by || true", rules,
         get("t/none"), T_DOCS, ALLOW)
    rules = ruleset("match /t/{id} {\n  allow get: if resource != null && resource.data.s == 'hello';\n}")
    case(f, a, "missing document: guarded by resource != null", rules, get("t/none"), T_DOCS, DENY)
    case(f, a, "existing document: guarded by resource != null", rules, get("t/doc"), T_DOCS, ALLOW)
    rules = ruleset("match /t/{id} {\n  allow get: if true;\n}")
    case(f, a, "missing document, rule allows: 404", rules, get("t/none"), {}, ALLOW)
    rules = ruleset("match /t/{id} {\n  allow get: if false;\n}")
    case(f, a, "missing document, rule denies: 403 not 404", rules, get("t/none"), {}, DENY)


# ---------------------------------------------------------------------------------------------
# wildcards.json


def wildcards():
    f, a = "wildcards", "wildcards"
    seeded = docs({
        "posts/p1": {"owner": "alice"},
        "users/alice": {"name": "Alice"},
        "users/bob": {"name": "Bob"},
        "users/alice/posts/p1": {"title": "hi"},
        "users/alice/posts/p1/comments/c1": {"text": "yo"},
        "users/alice/comments/c9": {"text": "x"},
    })
    all_docs = "match /{doc=**} {\n  allow get: if true;\n}"
    for version in ("2", "1"):
        v = "v%s" % version
        case(f, a, "%s {doc=**} matches a top-level document" % v, ruleset(all_docs, version),
             get("users/alice"), seeded, ALLOW)
        case(f, a, "%s {doc=**} matches a nested document" % v, ruleset(all_docs, version),
             get("users/alice/posts/p1/comments/c1"), seeded, ALLOW)
        tail = "match /users/{u}/{rest=**} {\n  allow get: if true;\n}"
        case(f, a, "%s /users/{u}/{rest=**} on users/alice (zero segments)" % v,
             ruleset(tail, version), get("users/alice"), seeded, ALLOW if version == "2" else DENY)
        case(f, a, "%s /users/{u}/{rest=**} on users/alice/posts/p1" % v,
             ruleset(tail, version), get("users/alice/posts/p1"), seeded, ALLOW)
        case(f, a, "%s /users/{u}/{rest=**} on posts/p1" % v,
             ruleset(tail, version), get("posts/p1"), seeded, DENY)
        bound = "match /users/{u}/{rest=**} {\n  allow get: if rest == 'posts/p1';\n}"
        case(f, a, "%s recursive wildcard compared with a string" % v, ruleset(bound, version),
             get("users/alice/posts/p1"), seeded, DENY)
        bound = "match /users/{u}/{rest=**} {\n  allow get: if rest == path('posts/p1');\n}"
        case(f, a, "%s recursive wildcard compared with path('posts/p1')" % v,
             ruleset(bound, version), get("users/alice/posts/p1"), seeded, ALLOW)
        bound = "match /users/{u}/{rest=**} {\n  allow get: if rest is path;\n}"
        case(f, a, "%s recursive wildcard is path" % v, ruleset(bound, version),
             get("users/alice/posts/p1"), seeded, ALLOW)
        bound = "match /users/{u}/{rest=**} {\n  allow get: if rest is string;\n}"
        case(f, a, "%s recursive wildcard is string" % v, ruleset(bound, version),
             get("users/alice/posts/p1"), seeded, DENY)
        bound = "match /users/{u}/{rest=**} {\n  allow get: if string(rest) == 'posts/p1';\n}"
        case(f, a, "%s string() of a recursive wildcard" % v, ruleset(bound, version),
             get("users/alice/posts/p1"), seeded, DENY)
        bound = "match /users/{u}/{rest=**} {\n  allow get: if string(rest) == '/posts/p1';\n}"
        case(f, a, "%s string() of a recursive wildcard has a leading slash" % v, ruleset(bound, version),
             get("users/alice/posts/p1"), seeded, ALLOW)
        bound = "match /users/{u}/{rest=**} {\n  allow get: if rest == /posts/p1 && rest[0] == 'posts';\n}"
        case(f, a, "%s recursive wildcard equals a path literal and indexes" % v, ruleset(bound, version),
             get("users/alice/posts/p1"), seeded, ALLOW)
        single = "match /users/{u} {\n  allow get: if u is string && u == 'alice';\n}"
        case(f, a, "%s single-segment wildcard is a string" % v, ruleset(single, version),
             get("users/alice"), seeded, ALLOW)
        case(f, a, "%s single-segment wildcard does not reach subcollections" % v,
             ruleset("match /users/{u} {\n  allow get: if true;\n}", version),
             get("users/alice/posts/p1"), seeded, DENY)
    case(f, a, "v1 explicit rules_version '1' with {doc=**} on users/alice/posts/p1",
         ruleset("match /users/{u}/{rest=**} {\n  allow get: if true;\n}", "1"),
         get("users/alice/posts/p1"), seeded, ALLOW)
    middle = "match /{path=**}/posts/{p} {\n  allow get: if true;\n}"
    case(f, a, "v2 {path=**} in the middle: users/alice/posts/p1", ruleset(middle),
         get("users/alice/posts/p1"), seeded, ALLOW)
    case(f, a, "v2 {path=**} in the middle: top-level posts/p1 (zero segments)", ruleset(middle),
         get("posts/p1"), seeded, ALLOW)
    case(f, a, "v2 {path=**} in the middle: users/alice/comments/c9 does not match",
         ruleset(middle), get("users/alice/comments/c9"), seeded, DENY)
    middle = "match /{path=**}/comments/{c} {\n  allow get: if path == path('users/alice/posts/p1');\n}"
    case(f, a, "v2 {path=**} in the middle binds the prefix as a path", ruleset(middle),
         get("users/alice/posts/p1/comments/c1"), seeded, UNSURE)
    middle = "match /{path=**}/comments/{c} {\n  allow get: if c == 'c9';\n}"
    case(f, a, "v2 {path=**} in the middle binds the last wildcard", ruleset(middle),
         get("users/alice/comments/c9"), seeded, ALLOW)
    nested = "match /users/{u} {\n  match /posts/{p} {\n    allow get: if u == 'alice' && p == 'p1';\n  }\n}"
    case(f, a, "nested match sees outer wildcard", ruleset(nested),
         get("users/alice/posts/p1"), seeded, ALLOW)
    case(f, a, "nested match does not apply to the parent", ruleset(nested),
         get("users/alice"), seeded, DENY)
    owner = "match /users/{u} {\n  allow get: if u == request.auth.uid;\n}"
    case(f, a, "wildcard equals uid: own document", ruleset(owner), get("users/alice"), seeded, ALLOW)
    case(f, a, "wildcard equals uid: other document", ruleset(owner), get("users/bob"), seeded, DENY)
    case(f, a, "database wildcard is (default)",
         ruleset("match /users/{u} {\n  allow get: if database == '(default)';\n}"),
         get("users/alice"), seeded, ALLOW)
    case(f, a, "literal segment matches only itself",
         ruleset("match /users/alice {\n  allow get: if true;\n}"),
         get("users/bob"), seeded, DENY)
    case(f, a, "literal segment matches itself",
         ruleset("match /users/alice {\n  allow get: if true;\n}"),
         get("users/alice"), seeded, ALLOW)
    generic = "match /{collection}/{doc} {\n  allow get: if collection == 'posts';\n}"
    case(f, a, "generic /{collection}/{doc}: posts", ruleset(generic), get("posts/p1"), seeded, ALLOW)
    case(f, a, "generic /{collection}/{doc}: users", ruleset(generic), get("users/alice"), seeded, DENY)
    case(f, a, "no matching rule denies", ruleset("match /posts/{p} {\n  allow get: if true;\n}"),
         get("users/alice"), seeded, DENY)
    # Overlapping matches combine with OR.
    over = "match /users/{u} {\n  allow get: if false;\n}\nmatch /users/alice {\n  allow get: if true;\n}"
    case(f, a, "overlap: a false match and a true literal match", ruleset(over),
         get("users/alice"), seeded, ALLOW)
    case(f, a, "overlap: only the false match applies", ruleset(over), get("users/bob"), seeded, DENY)
    over = "match /users/{u} {\n  allow get: if false;\n}\nmatch /{doc=**} {\n  allow read: if request.auth.uid == 'alice';\n}"
    case(f, a, "overlap: recursive catch-all allows alice", ruleset(over),
         get("users/bob"), seeded, ALLOW)
    case(f, a, "overlap: recursive catch-all denies bob", ruleset(over),
         get("users/bob", BOB), seeded, DENY)
    over = "match /users/{u} {\n  allow get: if resource.data.missing == 1;\n}\nmatch /users/{x} {\n  allow get: if x == 'alice';\n}"
    case(f, a, "overlap: same pattern twice, one errors, one holds", ruleset(over),
         get("users/alice"), seeded, ALLOW)
    # read / write umbrella methods.
    case(f, a, "allow read covers get", ruleset("match /users/{u} {\n  allow read: if true;\n}"),
         get("users/alice"), seeded, ALLOW)
    case(f, a, "allow write does not cover get", ruleset("match /users/{u} {\n  allow write: if true;\n}"),
         get("users/alice"), seeded, DENY)
    case(f, a, "allow list does not cover get", ruleset("match /users/{u} {\n  allow list: if true;\n}"),
         get("users/alice"), seeded, DENY)
    case(f, a, "allow get, list on one line",
         ruleset("match /users/{u} {\n  allow get, list: if u == 'alice';\n}"),
         get("users/alice"), seeded, ALLOW)


# ---------------------------------------------------------------------------------------------
# functions.json


def functions():
    f, a = "functions", "functions"
    seeded = docs({"users/alice": {"name": "Alice", "age": 30, "role": "admin"},
                   "users/bob": {"name": "Bob", "age": 12, "role": "user"}})

    def fcase(name, body, request, guess):
        case(f, a, name, ruleset(body), request, seeded, guess)

    fcase("service-level function with a parameter",
          "function isUser(u) {\n  return request.auth.uid == u;\n}\nmatch /users/{u} {\n  allow get: if isUser(u);\n}",
          get("users/alice"), ALLOW)
    fcase("service-level function with a parameter, other user",
          "function isUser(u) {\n  return request.auth.uid == u;\n}\nmatch /users/{u} {\n  allow get: if isUser(u);\n}",
          get("users/bob"), DENY)
    fcase("function inside a match uses the match's wildcard",
          "match /users/{u} {\n  function mine() {\n    return request.auth.uid == u;\n  }\n  allow get: if mine();\n}",
          get("users/alice"), ALLOW)
    fcase("function inside a match uses the match's wildcard, other user",
          "match /users/{u} {\n  function mine() {\n    return request.auth.uid == u;\n  }\n  allow get: if mine();\n}",
          get("users/bob"), DENY)
    fcase("function with let bindings",
          "function adult(data) {\n  let age = data.age;\n  let limit = 18;\n  return age >= limit;\n}\nmatch /users/{u} {\n  allow get: if adult(resource.data);\n}",
          get("users/alice"), ALLOW)
    fcase("function with let bindings, minor",
          "function adult(data) {\n  let age = data.age;\n  let limit = 18;\n  return age >= limit;\n}\nmatch /users/{u} {\n  allow get: if adult(resource.data);\n}",
          get("users/bob"), DENY)
    fcase("let bound to an erroring expression that is never used",
          "function f() {\n  let unused = resource.data.missing;\n  return true;\n}\nmatch /users/{u} {\n  allow get: if f();\n}",
          get("users/alice"), UNSURE)
    fcase("let that refers to an earlier let",
          "function f() {\n  let a = 2;\n  let b = a * 3;\n  return b == 6;\n}\nmatch /users/{u} {\n  allow get: if f();\n}",
          get("users/alice"), ALLOW)
    fcase("function calling a function",
          "function role() {\n  return resource.data.role;\n}\nfunction isAdmin() {\n  return role() == 'admin';\n}\nmatch /users/{u} {\n  allow get: if isAdmin();\n}",
          get("users/alice"), ALLOW)
    fcase("function calling a function, not admin",
          "function role() {\n  return resource.data.role;\n}\nfunction isAdmin() {\n  return role() == 'admin';\n}\nmatch /users/{u} {\n  allow get: if isAdmin();\n}",
          get("users/bob"), DENY)
    fcase("function defined after its use",
          "match /users/{u} {\n  allow get: if later(u);\n}\nfunction later(x) {\n  return x == 'alice';\n}",
          get("users/alice"), ALLOW)
    fcase("function of an outer match used in a nested match",
          "match /users/{u} {\n  function owner() {\n    return request.auth.uid == u;\n  }\n  match /posts/{p} {\n    allow get: if owner();\n  }\n}",
          get("users/alice/posts/x"), ALLOW)
    fcase("function of an outer match used in a nested match, other user",
          "match /users/{u} {\n  function owner() {\n    return request.auth.uid == u;\n  }\n  match /posts/{p} {\n    allow get: if owner();\n  }\n}",
          get("users/bob/posts/x"), DENY)
    fcase("function returning a non-boolean used as a condition",
          "function one() {\n  return 1;\n}\nmatch /users/{u} {\n  allow get: if one();\n}",
          get("users/alice"), DENY)
    fcase("function returning a ternary",
          "function limit(role) {\n  return role == 'admin' ? 100 : 10;\n}\nmatch /users/{u} {\n  allow get: if limit(resource.data.role) == 100;\n}",
          get("users/alice"), ALLOW)
    fcase("function returning a ternary, user",
          "function limit(role) {\n  return role == 'admin' ? 100 : 10;\n}\nmatch /users/{u} {\n  allow get: if limit(resource.data.role) == 100;\n}",
          get("users/bob"), DENY)
    fcase("function with two parameters",
          "function between(x, lo, hi) {\n  return x >= lo && x <= hi;\n}\nmatch /users/{u} {\n  allow get: if between(resource.data.age, 13, 99);\n}",
          get("users/alice"), ALLOW)
    fcase("function with two parameters, out of range",
          "function between(x, lo, hi) {\n  return x >= lo && x <= hi;\n}\nmatch /users/{u} {\n  allow get: if between(resource.data.age, 13, 99);\n}",
          get("users/bob"), DENY)
    fcase("parameter shadows a global name",
          "function f(resource) {\n  return resource == 'alice';\n}\nmatch /users/{u} {\n  allow get: if f(u);\n}",
          get("users/alice"), UNSURE)
    fcase("function builds a path with its parameter and calls exists",
          "function userExists(id) {\n  return exists(/databases/$(database)/documents/users/$(id));\n}\nmatch /users/{u} {\n  allow get: if userExists('bob');\n}",
          get("users/alice"), ALLOW)
    fcase("function reads request.resource on a create",
          "function valid(d) {\n  return d.name is string && d.name.size() > 0;\n}\nmatch /users/{u} {\n  allow create: if valid(request.resource.data);\n}",
          create("users/carol", {"name": "Carol"}), ALLOW)
    fcase("function reads request.resource on a create, empty name",
          "function valid(d) {\n  return d.name is string && d.name.size() > 0;\n}\nmatch /users/{u} {\n  allow create: if valid(request.resource.data);\n}",
          create("users/carol", {"name": ""}), DENY)
    fcase("let holding a map",
          "function f() {\n  let m = {'a': 1, 'b': 2};\n  return m.b == 2 && m.size() == 2;\n}\nmatch /users/{u} {\n  allow get: if f();\n}",
          get("users/alice"), ALLOW)


# ---------------------------------------------------------------------------------------------
# access_calls.json


def access_calls():
    f, a = "access_calls", "access_calls"
    people = {"users/alice": {"role": "admin"}, "users/bob": {"role": "user"},
              "posts/p1": {"owner": "alice"}}
    seeded = docs(people)
    D = "/databases/$(database)/documents"

    def acase(name, body, request, guess, documents=None):
        case(f, a, name, ruleset(body), request, seeded if documents is None else documents, guess)

    admin = "match /posts/{p} {\n  allow get: if get(%s/users/$(request.auth.uid)).data.role == 'admin';\n}" % D
    acase("get(): admin role of the requester", admin, get("posts/p1"), ALLOW)
    acase("get(): user role of the requester", admin, get("posts/p1", BOB), DENY)
    acase("get(): requester without a user document",
          admin, get("posts/p1", {"uid": "carol"}), DENY)
    acase("get() of a missing document == null",
          "match /posts/{p} {\n  allow get: if get(%s/users/carol) == null;\n}" % D, get("posts/p1"), UNSURE)
    acase("get() of a missing document, data read absorbed by ||",
          "match /posts/{p} {\n  allow get: if get(%s/users/carol).data.role == 'x' || true;\n}" % D,
          get("posts/p1"), ALLOW)
    acase("exists() of an existing document",
          "match /posts/{p} {\n  allow get: if exists(%s/users/alice);\n}" % D, get("posts/p1"), ALLOW)
    acase("exists() of a missing document",
          "match /posts/{p} {\n  allow get: if exists(%s/users/carol);\n}" % D, get("posts/p1"), DENY)
    acase("!exists() of a missing document",
          "match /posts/{p} {\n  allow get: if !exists(%s/users/carol);\n}" % D, get("posts/p1"), ALLOW)
    acase("get() with a path built by path()",
          "match /posts/{p} {\n  allow get: if get(path('/databases/' + database + '/documents/users/' + resource.data.owner)).data.role == 'admin';\n}",
          get("posts/p1"), ALLOW)
    acase("get().id and __name__",
          "match /posts/{p} {\n  allow get: if get(%s/users/alice).id == 'alice' && get(%s/users/alice)['__name__'] == %s/users/alice;\n}" % (D, D, D),
          get("posts/p1"), ALLOW)
    acase("get() of the document being read",
          "match /posts/{p} {\n  allow get: if get(%s/posts/$(p)).data.owner == resource.data.owner;\n}" % D,
          get("posts/p1"), ALLOW)
    acase("exists() with a string instead of a path",
          "match /posts/{p} {\n  allow get: if exists('/databases/(default)/documents/users/alice');\n}",
          get("posts/p1"), UNSURE)
    # getAfter / existsAfter in a batch.
    after = ("match /posts/{p} {\n  allow create: if getAfter(%s/users/$(request.auth.uid)).data.role == 'author';\n}\n"
             "match /users/{u} {\n  allow create: if request.auth.uid == u;\n}" % D)
    acase("getAfter(): the user document is created in the same batch", after,
          commit([w_create("posts/p2", {"owner": "carol"}), w_create("users/carol", {"role": "author"})],
                 {"uid": "carol"}), ALLOW)
    acase("getAfter(): the user document is created with another role", after,
          commit([w_create("posts/p2", {"owner": "carol"}), w_create("users/carol", {"role": "reader"})],
                 {"uid": "carol"}), DENY)
    acase("getAfter(): no user document in the batch or the database", after,
          commit([w_create("posts/p2", {"owner": "carol"})], {"uid": "carol"}), DENY)
    acase("get() (before) does not see the batch's write", 
          "match /posts/{p} {\n  allow create: if get(%s/users/$(request.auth.uid)).data.role == 'author';\n}\n"
          "match /users/{u} {\n  allow create: if request.auth.uid == u;\n}" % D,
          commit([w_create("posts/p2", {"owner": "carol"}), w_create("users/carol", {"role": "author"})],
                 {"uid": "carol"}), DENY)
    ea = ("match /posts/{p} {\n  allow delete: if !existsAfter(%s/posts/$(p)) && !existsAfter(%s/index/$(p));\n}\n"
          "match /index/{p} {\n  allow delete: if true;\n}" % (D, D))
    idx = docs(dict(people, **{"index/p1": {"ok": True}}))
    acase("existsAfter(): deleting a post and its index entry together", ea,
          commit([w_delete("posts/p1"), w_delete("index/p1")]), ALLOW, idx)
    acase("existsAfter(): deleting the post but not its index entry", ea,
          commit([w_delete("posts/p1")]), DENY, idx)
    acase("getAfter() of the written document is request.resource",
          "match /posts/{p} {\n  allow update: if getAfter(%s/posts/$(p)).data == request.resource.data;\n}" % D,
          update("posts/p1", {"owner": "alice", "n": 1}, mask=["n"]), ALLOW)
    acase("existsAfter() of the created document",
          "match /posts/{p} {\n  allow create: if existsAfter(%s/posts/$(p)) && !exists(%s/posts/$(p));\n}" % (D, D),
          create("posts/p9", {"owner": "alice"}), ALLOW)

    # Access-call limits.
    refs = {}
    for group in "ABC":
        for i in range(12):
            refs["refs/%s-%d" % (group, i)] = {"i": i}
    refs_docs = docs(dict(people, **refs))

    def chain(group_expr, count):
        return " && ".join("exists(%s/refs/$(%s + '-%d'))" % (D, group_expr, i) for i in range(count))

    for n, guess in ((10, ALLOW), (11, DENY)):
        body = "match /posts/{p} {\n  allow get: if %s;\n}" % chain("'A'", n)
        acase("limit: %d distinct exists() calls on a single get" % n, body, get("posts/p1"), guess, refs_docs)
    body = "match /posts/{p} {\n  allow get: if %s;\n}" % " && ".join(
        ["exists(%s/refs/A-0)" % D] * 12)
    acase("limit: the same exists() call 12 times on a single get", body, get("posts/p1"), ALLOW, refs_docs)
    body = "match /posts/{p} {\n  allow get: if %s && %s;\n}" % (
        " && ".join("exists(%s/refs/A-%d)" % (D, i) for i in range(6)),
        " && ".join("get(%s/refs/B-%d).data.i == %d" % (D, i, i) for i in range(5)))
    acase("limit: 6 exists() + 5 get() distinct calls on a single get", body, get("posts/p1"), DENY, refs_docs)
    body = "match /posts/{p} {\n  allow get: if %s || %s;\n}" % (
        chain("'A'", 5), chain("'B'", 6))
    acase("limit: 11 calls in an || whose left side holds (short-circuit)", body, get("posts/p1"),
          ALLOW, refs_docs)
    per_write = "match /items/{id} {\n  allow create: if %s;\n}" % chain("request.resource.data.g", 10)
    acase("limit: batch of 2 writes with 10 distinct calls each (20)", per_write,
          commit([w_create("items/i1", {"g": "A"}), w_create("items/i2", {"g": "B"})]), ALLOW, refs_docs)
    acase("limit: batch of 3 writes with 10 distinct calls each (30)", per_write,
          commit([w_create("items/i1", {"g": "A"}), w_create("items/i2", {"g": "B"}),
                  w_create("items/i3", {"g": "C"})]), DENY, refs_docs)
    acase("limit: batch of 3 writes sharing the same 10 calls", per_write,
          commit([w_create("items/i1", {"g": "A"}), w_create("items/i2", {"g": "A"}),
                  w_create("items/i3", {"g": "A"})]), UNSURE, refs_docs)
    per_write11 = "match /items/{id} {\n  allow create: if %s;\n}" % chain("request.resource.data.g", 11)
    acase("limit: batch of 2 writes, one with 11 distinct calls", per_write11,
          commit([w_create("items/i1", {"g": "A"})] + [w_create("items/i2", {"g": "B"})]), DENY, refs_docs)
    acase("limit: single write with 11 distinct calls", per_write11,
          commit([w_create("items/i1", {"g": "A"})]), DENY, refs_docs)
    acase("limit: single write with 10 distinct calls", per_write,
          commit([w_create("items/i1", {"g": "A"})]), ALLOW, refs_docs)
    list_rule = "match /posts/{p} {\n  allow list: if %s;\n}"
    acase("limit: list query with 10 distinct calls", list_rule % chain("'A'", 10),
          query("posts"), ALLOW, refs_docs)
    acase("limit: list query with 11 distinct calls", list_rule % chain("'A'", 11),
          query("posts"), ALLOW, refs_docs)
    twenty = chain("'A'", 12) + " && " + chain("'B'", 8)
    acase("limit: list query with 20 distinct calls", list_rule % twenty,
          query("posts"), ALLOW, refs_docs)
    acase("limit: list query with 21 distinct calls", list_rule % (twenty + " && exists(%s/refs/B-8)" % D),
          query("posts"), DENY, refs_docs)
    # Each write makes request.resource.data.k distinct calls (at most 10).
    counted = "match /items/{id} {\n  allow create: if %s;\n}" % " && ".join(
        "(request.resource.data.k < %d || exists(%s/refs/$(request.resource.data.g + '-%d')))" % (i + 1, D, i)
        for i in range(10))
    acase("limit: batch of 3 writes with 10 + 10 + 0 distinct calls (20)", counted,
          commit([w_create("items/i1", {"g": "A", "k": 10}), w_create("items/i2", {"g": "B", "k": 10}),
                  w_create("items/i3", {"g": "C", "k": 0})]), ALLOW, refs_docs)
    acase("limit: batch of 3 writes with 10 + 10 + 1 distinct calls (21)", counted,
          commit([w_create("items/i1", {"g": "A", "k": 10}), w_create("items/i2", {"g": "B", "k": 10}),
                  w_create("items/i3", {"g": "C", "k": 1})]), DENY, refs_docs)
    acase("limit: batch of 3 writes with 10 + 10 + 1 calls, the last one repeated (20)", counted,
          commit([w_create("items/i1", {"g": "A", "k": 10}), w_create("items/i2", {"g": "B", "k": 10}),
                  w_create("items/i3", {"g": "A", "k": 1})]), UNSURE, refs_docs)


# ---------------------------------------------------------------------------------------------
# auth_claims.json


def auth_claims():
    f, a = "auth_claims", "auth"
    seeded = docs({"t/doc": {"owner": "alice"}})

    def cl(name, condition, auth, guess):
        rules = ruleset("match /t/{id} {\n  allow get: if %s;\n}" % condition)
        who = "anonymous" if auth is None else auth["uid"]
        case(f, a, "%s: %s (as %s)" % (name, condition, who), rules, get("t/doc", auth), seeded, guess)

    cl("unauthenticated", "request.auth == null", ANON, ALLOW)
    cl("unauthenticated", "request.auth != null", ANON, DENY)
    cl("unauthenticated", "request.auth.uid == 'alice'", ANON, DENY)
    cl("unauthenticated", "request.auth == null || request.auth.uid == 'x'", ANON, ALLOW)
    cl("unauthenticated", "request.auth.uid != 'alice'", ANON, DENY)
    cl("signed in", "request.auth != null", ALICE, ALLOW)
    cl("signed in", "request.auth == null", ALICE, DENY)
    cl("uid", "request.auth.uid == 'alice'", ALICE, ALLOW)
    cl("uid", "request.auth.uid == 'alice'", BOB, DENY)
    cl("uid", "request.auth.uid == resource.data.owner", ALICE, ALLOW)
    cl("uid", "request.auth.uid == resource.data.owner", BOB, DENY)
    cl("uid", "request.auth.token.sub == request.auth.uid", ALICE, ALLOW)
    cl("uid", "request.auth.token.user_id == 'alice'", ALICE, ALLOW)
    cl("email", "request.auth.token.email == 'alice@example.com'", ALICE, ALLOW)
    cl("email", "request.auth.token.email.matches('.*@example[.]com$')", BOB, ALLOW)
    cl("email", "request.auth.token.email_verified == true", ALICE, ALLOW)
    cl("email", "request.auth.token.email_verified == true",
       {"uid": "carol", "token": {"email": "carol@example.com", "email_verified": False}}, DENY)
    cl("email", "request.auth.token.email_verified == true", {"uid": "dave"}, DENY)
    admin = {"uid": "root", "token": {"admin": True}}
    cl("custom claim", "request.auth.token.admin == true", admin, ALLOW)
    cl("custom claim", "request.auth.token.admin == true", ALICE, DENY)
    cl("custom claim", "request.auth.token.admin == true || request.auth.uid == 'alice'", ALICE, ALLOW)
    cl("custom claim", "request.auth.token.get('admin', false) == true", ALICE, DENY)
    cl("custom claim", "request.auth.token.get('admin', false) == true", admin, ALLOW)
    cl("custom claim", "'admin' in request.auth.token", admin, ALLOW)
    cl("custom claim", "'admin' in request.auth.token", ALICE, DENY)
    editor = {"uid": "ed", "token": {"role": "editor", "level": 3, "groups": ["team-a", "team-b"],
                                     "org": {"id": "acme", "tier": "gold"}}}
    cl("custom claim", "request.auth.token.role in ['editor', 'admin']", editor, ALLOW)
    cl("custom claim", "request.auth.token.role in ['owner', 'admin']", editor, DENY)
    cl("custom claim", "request.auth.token.level >= 3", editor, ALLOW)
    cl("custom claim", "request.auth.token.level > 3", editor, DENY)
    cl("custom claim", "'team-a' in request.auth.token.groups", editor, ALLOW)
    cl("custom claim", "request.auth.token.groups.hasAny(['team-z'])", editor, DENY)
    cl("custom claim", "request.auth.token.org.id == 'acme'", editor, ALLOW)
    cl("custom claim", "request.auth.token.org.tier == 'silver'", editor, DENY)
    cl("firebase claims", "request.auth.token.firebase.sign_in_provider == 'custom'", ALICE, ALLOW)
    cl("firebase claims", "request.auth.token.firebase.sign_in_provider == 'password'",
       {"uid": "pw", "token": {"firebase": {"sign_in_provider": "password"}}}, ALLOW)
    cl("firebase claims", "request.auth.token.firebase.sign_in_provider == 'password'", ALICE, DENY)
    cl("firebase claims", "request.auth.token.iat is int && request.auth.token.exp > request.auth.token.iat", ALICE, ALLOW)
    cl("firebase claims", "request.auth.token.auth_time == 1700000000", ALICE, UNSURE)
    cl("firebase claims", "request.auth.token.name == 'Alice'", ALICE, DENY)
    cl("phone", "request.auth.token.phone_number == '+15555550100'",
       {"uid": "ph", "token": {"phone_number": "+15555550100"}}, ALLOW)
    cl("token shape", "request.auth.token is map", ALICE, ALLOW)
    cl("token shape", "request.auth.uid is string", ALICE, ALLOW)


# ---------------------------------------------------------------------------------------------
# writes_and_server_time.json


def writes_and_server_time():
    f, a = "writes_and_server_time", "writes"
    existing = docs({"notes/n1": {"owner": "alice", "title": "old", "body": "b", "count": 1,
                                  "tags": ["x"], "createdAt": Ts("2024-01-01T00:00:00Z")},
                     "notes/bobs": {"owner": "bob", "title": "bob's", "body": "b", "count": 0,
                                    "tags": [], "createdAt": Ts("2024-01-01T00:00:00Z")}})

    def wcase(name, body, request, guess, documents=None):
        case(f, a, name, ruleset(body), request, existing if documents is None else documents, guess)

    created_now = "match /notes/{id} {\n  allow create: if request.resource.data.createdAt == request.time;\n}"
    wcase("create: serverTimestamp createdAt == request.time", created_now,
          create("notes/n2", {"owner": "alice"}, transforms=[server_time("createdAt")]), ALLOW)
    wcase("create: client timestamp createdAt == request.time", created_now,
          create("notes/n2", {"owner": "alice", "createdAt": Ts("2024-01-01T00:00:00Z")}), DENY)
    wcase("create: no createdAt at all", created_now, create("notes/n2", {"owner": "alice"}), DENY)
    wcase("create: serverTimestamp on another field", created_now,
          create("notes/n2", {"owner": "alice"}, transforms=[server_time("updatedAt")]), DENY)
    wcase("create: serverTimestamp is a timestamp",
          "match /notes/{id} {\n  allow create: if request.resource.data.createdAt is timestamp;\n}",
          create("notes/n2", {"owner": "alice"}, transforms=[server_time("createdAt")]), ALLOW)
    wcase("create: two serverTimestamps are equal",
          "match /notes/{id} {\n  allow create: if request.resource.data.createdAt == request.resource.data.updatedAt;\n}",
          create("notes/n2", {}, transforms=[server_time("createdAt"), server_time("updatedAt")]), ALLOW)
    updated_now = "match /notes/{id} {\n  allow update: if request.resource.data.updatedAt == request.time\n                && request.resource.data.createdAt == resource.data.createdAt;\n}"
    wcase("update: serverTimestamp updatedAt, createdAt untouched", updated_now,
          update("notes/n1", {"title": "new"}, mask=["title"], transforms=[server_time("updatedAt")]), ALLOW)
    wcase("update: client updatedAt", updated_now,
          update("notes/n1", {"title": "new", "updatedAt": Ts("2024-01-02T00:00:00Z")},
                 mask=["title", "updatedAt"]), DENY)
    wcase("update: serverTimestamp updatedAt but createdAt changed", updated_now,
          update("notes/n1", {"createdAt": Ts("2020-01-01T00:00:00Z")}, mask=["createdAt"],
                 transforms=[server_time("updatedAt")]), DENY)
    wcase("update: serverTimestamp on createdAt too", updated_now,
          update("notes/n1", {}, mask=[], transforms=[server_time("updatedAt"), server_time("createdAt")]), DENY)
    inc = "match /notes/{id} {\n  allow update: if request.resource.data.count == resource.data.count + 1;\n}"
    wcase("update: increment(1) transform", inc,
          update("notes/n1", {}, mask=[], transforms=[increment("count", 1)]), ALLOW)
    wcase("update: increment(2) transform", inc,
          update("notes/n1", {}, mask=[], transforms=[increment("count", 2)]), DENY)
    wcase("update: arrayUnion transform",
          "match /notes/{id} {\n  allow update: if request.resource.data.tags == ['x', 'y'];\n}",
          update("notes/n1", {}, mask=[], transforms=[array_union("tags", ["y", "x"])]), ALLOW)
    # request.resource vs resource.
    by_old = "match /notes/{id} {\n  allow update: if resource.data.owner == request.auth.uid;\n}"
    by_new = "match /notes/{id} {\n  allow update: if request.resource.data.owner == request.auth.uid;\n}"
    steal = update("notes/bobs", {"owner": "alice"}, mask=["owner"])
    wcase("update: resource is the stored document (alice takes bob's note)", by_old, steal, DENY)
    wcase("update: request.resource is the result (alice takes bob's note)", by_new, steal, ALLOW)
    wcase("update: request.resource merges the masked write with the stored fields",
          "match /notes/{id} {\n  allow update: if request.resource.data.title == 'old' && request.resource.data.body == 'new';\n}",
          update("notes/n1", {"body": "new"}, mask=["body"]), ALLOW)
    wcase("update: a field in the mask but not in the data is removed",
          "match /notes/{id} {\n  allow update: if !('body' in request.resource.data) && 'body' in resource.data;\n}",
          update("notes/n1", {}, mask=["body"]), ALLOW)
    wcase("update: a full set replaces the document",
          "match /notes/{id} {\n  allow update: if request.resource.data.keys() == ['title'];\n}",
          commit([w_set("notes/n1", {"title": "only"})]), ALLOW)
    wcase("update: request.resource.id and __name__",
          "match /notes/{id} {\n  allow update: if request.resource.id == 'n1' && request.resource['__name__'] == /databases/$(database)/documents/notes/n1;\n}",
          update("notes/n1", {"title": "t"}, mask=["title"]), ALLOW)
    # Which method a write is.
    only_create = "match /notes/{id} {\n  allow create: if true;\n}"
    only_update = "match /notes/{id} {\n  allow update: if true;\n}"
    wcase("set without precondition on a missing document is a create", only_create,
          commit([w_set("notes/new", {"title": "t"})]), ALLOW)
    wcase("set without precondition on a missing document is not an update", only_update,
          commit([w_set("notes/new", {"title": "t"})]), DENY)
    wcase("set without precondition on an existing document is an update", only_update,
          commit([w_set("notes/n1", {"title": "t"})]), ALLOW)
    wcase("set without precondition on an existing document is not a create", only_create,
          commit([w_set("notes/n1", {"title": "t"})]), DENY)
    wcase("create (exists=false) of an existing document with create allowed", only_create,
          create("notes/n1", {"title": "t"}), UNSURE)
    wcase("update (exists=true) of a missing document with update allowed", only_update,
          update("notes/none", {"title": "t"}), UNSURE)
    wcase("update (exists=true) of a missing document with update: resource != null",
          "match /notes/{id} {\n  allow update: if resource != null;\n}",
          update("notes/none", {"title": "t"}), UNSURE)
    wcase("create: resource is null", "match /notes/{id} {\n  allow create: if resource == null;\n}",
          create("notes/n2", {"title": "t"}), ALLOW)
    wcase("create (exists=false) of an existing document: resource is the stored document",
          "match /notes/{id} {\n  allow create: if resource.data.title == 'old';\n}",
          create("notes/n1", {"title": "t"}), UNSURE)
    wcase("create (exists=false) of an existing document: resource == null",
          "match /notes/{id} {\n  allow create: if resource == null;\n}",
          create("notes/n1", {"title": "t"}), UNSURE)
    wcase("request.method on create",
          "match /notes/{id} {\n  allow write: if request.method == 'create';\n}",
          create("notes/n2", {"title": "t"}), UNSURE)
    wcase("request.method on update",
          "match /notes/{id} {\n  allow write: if request.method == 'create';\n}",
          update("notes/n1", {"title": "t"}, mask=["title"]), DENY)
    wcase("allow write covers create", "match /notes/{id} {\n  allow write: if true;\n}",
          create("notes/n2", {"title": "t"}), ALLOW)
    wcase("allow write covers delete", "match /notes/{id} {\n  allow write: if true;\n}",
          delete("notes/n1"), ALLOW)
    wcase("allow create does not cover delete", only_create, delete("notes/n1"), DENY)
    # Deletes.
    del_owner = "match /notes/{id} {\n  allow delete: if resource.data.owner == request.auth.uid;\n}"
    wcase("delete: owner deletes", del_owner, delete("notes/n1"), ALLOW)
    wcase("delete: non-owner deletes", del_owner, delete("notes/n1", BOB), DENY)
    wcase("delete: unauthenticated", del_owner, delete("notes/n1", ANON), DENY)
    wcase("delete of a missing document: resource.data errors", del_owner, delete("notes/none"), DENY)
    wcase("delete of a missing document: resource == null",
          "match /notes/{id} {\n  allow delete: if resource == null;\n}", delete("notes/none"), ALLOW)
    wcase("delete: request.resource is null",
          "match /notes/{id} {\n  allow delete: if request.resource == null;\n}", delete("notes/n1"), UNSURE)
    # Batches are all-or-nothing.
    owner_create = "match /notes/{id} {\n  allow create: if request.resource.data.owner == request.auth.uid;\n}"
    wcase("batch: both writes allowed", owner_create,
          commit([w_create("notes/a", {"owner": "alice"}), w_create("notes/b", {"owner": "alice"})]), ALLOW)
    wcase("batch: one write denied denies the commit", owner_create,
          commit([w_create("notes/a", {"owner": "alice"}), w_create("notes/b", {"owner": "bob"})]), DENY)
    wcase("create: request.resource.data.owner == uid, unauthenticated", owner_create,
          create("notes/a", {"owner": "alice"}, ANON), DENY)


# ---------------------------------------------------------------------------------------------
# queries.json


def queries():
    f, a = "queries", "queries"
    seeded = docs({
        "docs/d1": {"owner": "alice", "visibility": "public", "n": 7},
        "docs/d2": {"owner": "bob", "visibility": "private", "n": 3},
        "docs/d3": {"owner": "alice", "visibility": "private", "n": 12},
        "users/alice/posts/p1": {"owner": "alice", "n": 1},
        "users/bob/posts/p2": {"owner": "bob", "n": 2},
        "posts/p3/comments/c1": {"owner": "alice", "text": "hi"},
        "users/alice/comments/c2": {"owner": "bob", "text": "yo"},
    })

    def qcase(name, body, request, guess, documents=None, version="2"):
        case(f, a, name, ruleset(body, version), request, seeded if documents is None else documents, guess)

    owner = "match /docs/{id} {\n  allow list: if resource.data.owner == request.auth.uid;\n}"
    qcase("owner rule: filter owner == uid", owner, query("docs", [("owner", "==", "alice")]), ALLOW)
    qcase("owner rule: filter owner == other uid", owner, query("docs", [("owner", "==", "bob")]), DENY)
    qcase("owner rule: bob filters owner == bob", owner,
          query("docs", [("owner", "==", "bob")], auth=BOB), ALLOW)
    qcase("owner rule: no filter", owner, query("docs"), DENY)
    qcase("owner rule: no filter on an empty collection", owner, query("docs"), DENY, {})
    qcase("owner rule: filter owner == uid on an empty collection", owner,
          query("docs", [("owner", "==", "alice")]), ALLOW, {})
    qcase("owner rule: owner == uid and another filter", owner,
          query("docs", [("owner", "==", "alice"), ("n", ">", 5)]), ALLOW)
    qcase("owner rule: filter owner in [uid]", owner,
          query("docs", [("owner", "in", ["alice"])]), UNSURE)
    qcase("owner rule: filter owner in [uid, other]", owner,
          query("docs", [("owner", "in", ["alice", "bob"])]), DENY)
    qcase("owner rule: filter owner != other", owner,
          query("docs", [("owner", "!=", "bob")]), DENY)
    qcase("owner rule: unauthenticated with filter owner == alice", owner,
          query("docs", [("owner", "==", "alice")], auth=ANON), DENY)
    qcase("owner rule: filter on another field only", owner,
          query("docs", [("visibility", "==", "public")]), DENY)
    qcase("owner rule: orderBy owner without filter", owner,
          query("docs", order=[("owner", "ASCENDING")]), DENY)
    vis = "match /docs/{id} {\n  allow list: if resource.data.visibility == 'public' || resource.data.owner == request.auth.uid;\n}"
    qcase("public or owner: filter visibility == public", vis,
          query("docs", [("visibility", "==", "public")]), ALLOW)
    qcase("public or owner: filter owner == uid", vis, query("docs", [("owner", "==", "alice")]), ALLOW)
    qcase("public or owner: filter visibility == private", vis,
          query("docs", [("visibility", "==", "private")]), DENY)
    limit = "match /docs/{id} {\n  allow list: if request.query.limit <= 10;\n}"
    qcase("limit rule: limit 5", limit, query("docs", limit=5), ALLOW)
    qcase("limit rule: limit 10", limit, query("docs", limit=10), ALLOW)
    qcase("limit rule: limit 11", limit, query("docs", limit=11), DENY)
    qcase("limit rule: no limit", limit, query("docs"), DENY)
    qcase("limit and owner: both satisfied",
          "match /docs/{id} {\n  allow list: if request.query.limit <= 10 && resource.data.owner == request.auth.uid;\n}",
          query("docs", [("owner", "==", "alice")], limit=10), ALLOW)
    qcase("limit and owner: limit too large",
          "match /docs/{id} {\n  allow list: if request.query.limit <= 10 && resource.data.owner == request.auth.uid;\n}",
          query("docs", [("owner", "==", "alice")], limit=50), DENY)
    qcase("request.query.offset",
          "match /docs/{id} {\n  allow list: if request.query.offset == 2;\n}",
          query("docs", offset=2), UNSURE)
    qcase("request.query.orderBy is set",
          "match /docs/{id} {\n  allow list: if request.query.orderBy != null;\n}",
          query("docs", order=[("n", "ASCENDING")]), UNSURE)
    rng = "match /docs/{id} {\n  allow list: if resource.data.n > 5;\n}"
    qcase("range rule n > 5: filter n > 5", rng, query("docs", [("n", ">", 5)]), ALLOW)
    qcase("range rule n > 5: filter n > 10", rng, query("docs", [("n", ">", 10)]), ALLOW)
    qcase("range rule n > 5: filter n > 3", rng, query("docs", [("n", ">", 3)]), DENY)
    qcase("range rule n > 5: filter n == 7", rng, query("docs", [("n", "==", 7)]), ALLOW)
    qcase("range rule n > 5: filter n >= 5", rng, query("docs", [("n", ">=", 5)]), DENY)
    qcase("allow read covers list", "match /docs/{id} {\n  allow read: if request.auth != null;\n}",
          query("docs"), ALLOW)
    qcase("allow get does not cover list", "match /docs/{id} {\n  allow get: if true;\n}",
          query("docs"), DENY)
    qcase("list with a constant-true rule", "match /docs/{id} {\n  allow list: if true;\n}",
          query("docs", [("n", ">", 0)], limit=1), ALLOW)
    qcase("list rule on resource.id", "match /docs/{id} {\n  allow list: if id == 'd1';\n}",
          query("docs"), DENY)
    # Subcollections and collection groups.
    sub = "match /users/{u}/posts/{p} {\n  allow list: if u == request.auth.uid;\n}"
    qcase("subcollection: own user's posts", sub, query("posts", parent="users/alice"), ALLOW)
    qcase("subcollection: another user's posts", sub, query("posts", parent="users/bob"), DENY)
    qcase("subcollection: collection-group query without a recursive rule", sub,
          query("posts", group=True), DENY)
    cg = "match /{path=**}/comments/{c} {\n  allow read: if true;\n}"
    qcase("collection group: {path=**}/comments rule allows the group query", cg,
          query("comments", group=True), ALLOW)
    qcase("collection group: {path=**}/comments rule allows a subcollection query", cg,
          query("comments", parent="posts/p3"), ALLOW)
    qcase("collection group: rule on posts/{p}/comments only",
          "match /posts/{p}/comments/{c} {\n  allow read: if true;\n}",
          query("comments", group=True), DENY)
    qcase("collection group: rule on posts/{p}/comments allows that subcollection",
          "match /posts/{p}/comments/{c} {\n  allow read: if true;\n}",
          query("comments", parent="posts/p3"), ALLOW)
    cgo = "match /{path=**}/comments/{c} {\n  allow list: if resource.data.owner == request.auth.uid;\n}"
    qcase("collection group with owner rule: filter owner == uid", cgo,
          query("comments", [("owner", "==", "alice")], group=True), ALLOW)
    qcase("collection group with owner rule: no filter", cgo,
          query("comments", group=True), DENY)
    qcase("collection group: v1 recursive rule does not cover group queries",
          "match /{path=**} {\n  allow read: if true;\n}",
          query("comments", group=True), ALLOW, version="1")
    qcase("collection group: v2 /{path=**} catch-all covers group queries",
          "match /{path=**} {\n  allow read: if true;\n}",
          query("comments", group=True), ALLOW)
    qcase("collection group: rule on /{path=**}/posts does not cover comments",
          "match /{path=**}/posts/{p} {\n  allow read: if true;\n}",
          query("comments", group=True), DENY)


# ---------------------------------------------------------------------------------------------
# profile_rules.json


def profile_rules():
    f, a = "profile_rules", "profile"
    with open(os.path.join(REPO, "rules", "firestore.rules")) as handle:
        rules = handle.read()
    created = Ts("2024-05-01T09:30:00Z")
    alice = {"uid": "alice", "email": "alice@example.com", "displayName": "Alice Liddell",
             "photoURL": "https://example.com/photos/alice.png", "createdAt": created,
             "updatedAt": created}
    bob = {"uid": "bob", "email": "bob@example.org", "displayName": "Bob", "createdAt": created,
           "updatedAt": created}
    seeded = docs({"users/alice": alice, "users/bob": bob})
    STAMPS = [server_time("createdAt"), server_time("updatedAt")]

    def new_profile(**changes):
        data = {"uid": "carol", "email": "carol@example.com", "displayName": "Carol Danvers"}
        data.update(changes)
        return {k: v for k, v in data.items() if v is not DROP}

    CAROL = {"uid": "carol", "token": {"email": "carol@example.com", "email_verified": True}}

    def pcase(name, request, guess, documents=None):
        case(f, a, name, rules, request, seeded if documents is None else documents, guess)

    def pcreate(name, data, guess, auth=CAROL, transforms=STAMPS, path="users/carol"):
        pcase("create: " + name, create(path, data, auth, transforms), guess)

    pcreate("valid profile with server timestamps", new_profile(), ALLOW)
    pcreate("valid profile with a photoURL", new_profile(photoURL="https://example.com/c.png"), ALLOW)
    pcreate("valid profile with a null photoURL", new_profile(photoURL=None), ALLOW)
    pcreate("photoURL that is a number", new_profile(photoURL=42), DENY)
    pcreate("unauthenticated", new_profile(), DENY, auth=ANON)
    pcreate("someone else's document", new_profile(), DENY, auth=BOB)
    pcreate("uid field differs from the document id", new_profile(uid="bob"), DENY)
    pcreate("email without @", new_profile(email="carol.example.com"), DENY)
    pcreate("email with a space", new_profile(email="carol @example.com"), DENY)
    pcreate("email without a dot in the domain", new_profile(email="carol@localhost"), DENY)
    pcreate("email that is a number", new_profile(email=7), DENY)
    pcreate("empty displayName", new_profile(displayName=""), DENY)
    pcreate("displayName of 1 character", new_profile(displayName="C"), ALLOW)
    pcreate("displayName of 50 characters", new_profile(displayName="C" * 50), ALLOW)
    pcreate("displayName of 51 characters", new_profile(displayName="C" * 51), DENY)
    pcreate("displayName that is a number", new_profile(displayName=12), DENY)
    pcreate("missing displayName", new_profile(displayName=DROP), DENY)
    pcreate("missing email", new_profile(email=DROP), DENY)
    pcreate("unknown extra key", new_profile(role="admin"), DENY)
    pcreate("client createdAt instead of server time",
            new_profile(createdAt=Ts("2024-05-01T09:30:00Z")), DENY,
            transforms=[server_time("updatedAt")])
    pcreate("client updatedAt, server createdAt",
            new_profile(updatedAt=Ts("2024-05-01T09:30:00Z")), UNSURE,
            transforms=[server_time("createdAt")])
    pcreate("no updatedAt", new_profile(), DENY, transforms=[server_time("createdAt")])
    pcreate("no timestamps", new_profile(), DENY, transforms=[])
    pcreate("over an existing profile", dict(new_profile(), uid="alice", email="alice@example.com"),
            ALLOW, auth=ALICE, path="users/alice")
    pcase("create: set without precondition on a new profile",
          commit([w_set("users/carol", new_profile(), STAMPS)], CAROL), ALLOW)
    pcase("create: batch creating own and another profile",
          commit([w_create("users/carol", new_profile(), STAMPS),
                  w_create("users/dave", new_profile(uid="dave"), STAMPS)], CAROL), DENY)
    # Reads.
    pcase("get: own profile", get("users/alice", ALICE), ALLOW)
    pcase("get: another user's profile", get("users/alice", BOB), ALLOW)
    pcase("get: unauthenticated", get("users/alice", ANON), DENY)
    pcase("get: missing profile, signed in", get("users/nobody", ALICE), ALLOW)
    pcase("get: missing profile, unauthenticated", get("users/nobody", ANON), DENY)
    pcase("list: signed in", query("users", auth=BOB), ALLOW)
    pcase("list: signed in with a filter", query("users", [("displayName", "==", "Bob")], auth=ALICE), ALLOW)
    pcase("list: unauthenticated", query("users", auth=ANON), DENY)
    pcase("get: outside the users collection", get("other/x", ALICE), DENY)
    # Updates.
    upd = [server_time("updatedAt")]

    def pupdate(name, data, mask, guess, auth=ALICE, transforms=upd, path="users/alice"):
        pcase("update: " + name, update(path, data, auth, mask=mask, transforms=transforms), guess)

    pupdate("displayName with server updatedAt", {"displayName": "Alice L."}, ["displayName"], ALLOW)
    pupdate("photoURL with server updatedAt", {"photoURL": "https://example.com/new.png"}, ["photoURL"], ALLOW)
    pupdate("photoURL to null", {"photoURL": None}, ["photoURL"], ALLOW)
    pupdate("remove photoURL", {}, ["photoURL"], ALLOW)
    pupdate("displayName without touching updatedAt", {"displayName": "Alice L."}, ["displayName"], DENY,
            transforms=[])
    pupdate("displayName with a client updatedAt",
            {"displayName": "Alice L.", "updatedAt": Ts("2024-06-01T00:00:00Z")},
            ["displayName", "updatedAt"], DENY, transforms=[])
    pupdate("email", {"email": "alice@new.example.com"}, ["email"], DENY)
    pupdate("email to the same value", {"email": "alice@example.com"}, ["email"], ALLOW)
    pupdate("createdAt", {"createdAt": Ts("2020-01-01T00:00:00Z")}, ["createdAt"], DENY)
    pupdate("createdAt to server time", {}, [], DENY, transforms=upd + [server_time("createdAt")])
    pupdate("uid", {"uid": "mallory"}, ["uid"], DENY)
    pupdate("another user's profile", {"displayName": "Hacked"}, ["displayName"], DENY, auth=BOB)
    pupdate("unauthenticated", {"displayName": "Hacked"}, ["displayName"], DENY, auth=ANON)
    pupdate("displayName of 51 characters", {"displayName": "A" * 51}, ["displayName"], DENY)
    pupdate("displayName empty", {"displayName": ""}, ["displayName"], DENY)
    pupdate("adding an unknown key", {"role": "admin"}, ["role"], DENY)
    pupdate("removing displayName", {}, ["displayName"], DENY)
    pupdate("photoURL on a profile without one", {"photoURL": "https://example.com/b.png"}, ["photoURL"],
            ALLOW, auth=BOB, path="users/bob")
    pcase("update: full set keeping immutable fields",
          commit([w_update("users/alice", dict(alice, displayName="Alice Pleasance"), transforms=upd)], ALICE),
          ALLOW)
    pcase("update: full set dropping photoURL and changing displayName",
          commit([w_update("users/alice", {k: v for k, v in alice.items() if k != "photoURL"},
                           transforms=upd)], ALICE), ALLOW)
    pcase("update: full set dropping email",
          commit([w_update("users/alice", {k: v for k, v in alice.items() if k != "email"},
                           transforms=upd)], ALICE), DENY)
    pcase("update: missing profile (exists precondition)",
          commit([w_update("users/carol", new_profile(), mask=["displayName"], transforms=upd)], CAROL), DENY)
    # Deletes.
    pcase("delete: own profile", delete("users/alice", ALICE), DENY)
    pcase("delete: unauthenticated", delete("users/alice", ANON), DENY)
    pcase("delete: another user's profile", delete("users/alice", BOB), DENY)


# ---------------------------------------------------------------------------------------------
# Counterparts that do not hold (for a balance of allow and deny), appended to their areas' files.


def counterparts():
    exprs("operators", "operators", "arithmetic counterpart", [
        ("2 * 3 + 1 == 8", DENY),
        ("10 - (4 - 3) == 3", DENY),
        ("7 / 2 == 3.5", DENY),
        ("-7 % 3 == 2", DENY),
        ("7.0 / 2 == 3", DENY),
        ("1.0 == 2.0 - 0.5", DENY),
        ("resource.data.n >= 6", DENY),
        ("resource.data.neg > 0", DENY),
    ])
    exprs("operators", "operators", "logic counterpart", [
        ("1 + 1 == 3 || 2 + 2 == 5", DENY),
        ("!(true || false)", DENY),
        ("true && !true", DENY),
        ("(true ? false : true)", DENY),
        ("(false ? true : false)", DENY),
        ("'abc' > 'abd'", DENY),
        ("'' > 'a'", DENY),
        ("null != null", DENY),
        ("resource.data.nul != null", DENY),
        ("[1, [2]] == [1, [3]]", DENY),
        ("{'a': {'b': 1}} == {'a': {'b': 2}}", DENY),
        ("2 in [[2]]", DENY),
        ("'a' in ['ab']", DENY),
    ])
    exprs("operators", "operators", "is counterpart", [
        ("1 is string", DENY),
        ("'1' is int", DENY),
        ("[1] is map", DENY),
        ("{'a': 1} is list", DENY),
        ("true is int", DENY),
        ("resource.data.ts is duration", DENY),
        ("resource.data.geo is map", DENY),
        ("resource.data.by is string", DENY),
        ("resource.data.ref is string", DENY),
        ("request.time is int", DENY),
        ("resource.data.f is int", DENY),
        ("resource.data.n is float", DENY),
    ])
    exprs("strings", "strings", "counterpart", [
        ("'Hello'.upper() == 'Hello'", DENY),
        ("'hello'.matches('h')", DENY),
        ("'hello'.matches('H.*')", DENY),
        ("'a-b'.split('-') == ['a', 'b', '']", DENY),
        ("'abc'.replace('b', '') == 'abc'", DENY),
        ("'hello'[0] == 'e'", DENY),
        ("resource.data.s == 'Hello'", DENY),
        ("resource.data.s.lower() == 'HELLO'", DENY),
        ("'abc'.trim() == ' abc'", DENY),
        ("'é'.size() == 2", DENY),
    ])
    exprs("lists_maps_sets", "lists", "list counterpart", [
        ("[1, 2, 3].size() == 2", DENY),
        ("[1, 2, 3][0] == 2", DENY),
        ("[1, 2, 3][0:2] == [2, 3]", DENY),
        ("['a', 'b'].join('') == 'a b'", DENY),
        ("[1, 2].concat([3]) == [3, 1, 2]", DENY),
        ("[1, 2, 3].removeAll([2]) == [1, 2]", DENY),
        ("resource.data.tags.hasOnly(['red'])", DENY),
    ])
    exprs("lists_maps_sets", "maps", "map counterpart", [
        ("{'a': 1}.values() == [2]", DENY),
        ("{'a': 1}.keys() == ['b']", DENY),
        ("'z' in {'a': 1}", DENY),
        ("resource.data.m.a == 2", DENY),
        ("resource.data.m.b == 'y'", DENY),
        ("resource.data.m.get('a', 0) == 0", DENY),
    ])
    exprs("lists_maps_sets", "sets", "set counterpart", [
        ("[1, 2].toSet().intersection([3].toSet()).size() > 0", DENY),
        ("[1, 2].toSet().union([2].toSet()).size() == 3", DENY),
        ("'red' in resource.data.tags.toSet().difference(['red'].toSet())", DENY),
    ])
    exprs("mapdiff", "mapdiff", "literal diff counterpart", [
        ("{'a': 1, 'b': 2}.diff({'a': 1, 'b': 3}).affectedKeys() == ['a'].toSet()", DENY),
        ("{'a': 1, 'b': 2}.diff({'a': 9, 'b': 2}).unchangedKeys() == ['a'].toSet()", DENY),
        ("{'a': 1}.diff({'a': 1}).changedKeys().size() == 1", DENY),
        ("{'a': 1}.diff({}).removedKeys().size() == 1", DENY),
    ])
    exprs("timestamps_durations", "timestamps", "timestamp counterpart", [
        ("resource.data.ts.month() == 4", DENY),
        ("resource.data.ts.day() == 14", DENY),
        ("resource.data.ts.hours() == 13", DENY),
        ("resource.data.ts.minutes() == 35", DENY),
        ("resource.data.ts.seconds() == 57", DENY),
        ("resource.data.ts.nanos() == 789", DENY),
        ("resource.data.ts.dayOfWeek() == 4", DENY),
        ("resource.data.ts.dayOfYear() == 74", DENY),
        ("resource.data.ts.date() == timestamp.date(2024, 3, 16)", DENY),
        ("resource.data.ts.time() == duration.time(12, 34, 56, 0)", DENY),
        ("timestamp.value(0).year() == 1969", DENY),
        ("timestamp.date(2024, 1, 1) > resource.data.ts", DENY),
        ("request.time < resource.data.ts", DENY),
        ("request.time.year() < 2024", DENY),
        ("resource.data.ts + duration.value(1, 'd') == resource.data.ts", DENY),
    ])
    exprs("timestamps_durations", "durations", "duration counterpart", [
        ("duration.value(1, 'd') == duration.value(25, 'h')", DENY),
        ("duration.value(1, 'm').seconds() == 1", DENY),
        ("duration.value(1, 's') > duration.value(1, 'm')", DENY),
    ])
    exprs("math_conversions", "math", "math counterpart", [
        ("math.ceil(1.2) == 1", DENY),
        ("math.floor(1.8) == 2", DENY),
        ("math.sqrt(16) == 5", DENY),
        ("math.abs(2.5) == -2.5", DENY),
        ("math.pow(3, 2) == 6", DENY),
        ("math.isNaN(0.0)", DENY),
    ])
    exprs("math_conversions", "conversions", "conversion counterpart", [
        ("int('42') == 43", DENY),
        ("int(3.9) == 4", DENY),
        ("float('1.5') == 1.0", DENY),
        ("string(42) == '42.0'", DENY),
        ("string(true) == 'True'", DENY),
        ("float(2) is int", DENY),
    ])
    exprs("paths_latlng_bytes_hashing", "paths", "path counterpart", [
        ("request.path == /databases/$(database)/documents/t", DENY),
        ("resource['__name__'] == /databases/$(database)/documents/t/other", DENY),
        ("resource.data.ref[4] == 'bob'", DENY),
        ("request.path[3] == 'doc'", DENY),
        ("path('/a/b') == path('/a/b/c')", DENY),
    ])
    exprs("paths_latlng_bytes_hashing", "latlng", "latlng counterpart", [
        ("resource.data.geo.latitude() == 2.3522", DENY),
        ("latlng.value(0, 0) == latlng.value(0, 1)", DENY),
    ])
    exprs("paths_latlng_bytes_hashing", "bytes", "bytes counterpart", [
        ("b'abc'.size() == 4", DENY),
        ("b'abc'.toBase64() == 'abc'", DENY),
    ])
    exprs("paths_latlng_bytes_hashing", "hashing", "hashing counterpart", [
        ("hashing.md5('abc') == hashing.md5('ABC')", DENY),
        ("hashing.sha256('abc').size() == 16", DENY),
    ])
    exprs("paths_latlng_bytes_hashing", "debug", "debug counterpart", [
        ("debug(1) == 2", DENY),
        ("debug('x') == 'y'", DENY),
    ])


class _Drop:
    pass


DROP = _Drop()


# ---------------------------------------------------------------------------------------------
# Main

AREAS = [operators, strings, lists_maps_sets, mapdiff, timestamps_durations, math_conversions,
         paths_latlng_bytes_hashing, errors, wildcards, functions, access_calls, auth_claims,
         writes_and_server_time, queries, profile_rules, counterparts]


def build():
    FILES.clear()
    GUESSES.clear()
    for area in AREAS:
        area()
    return FILES


def load_existing(path):
    try:
        with open(path) as handle:
            return {c["name"]: c for c in json.load(handle)}
    except (OSError, ValueError):
        return {}


def key(c):
    return json.dumps([c["rules"], c["documents"], c["request"]], sort_keys=True)


def write():
    os.makedirs(CASES_DIR, exist_ok=True)
    total = kept = 0
    for stem, cases in build().items():
        path = os.path.join(CASES_DIR, stem + ".json")
        old = load_existing(path)
        for c in cases:
            previous = old.get(c["name"])
            if previous and "expected" in previous and key(previous) == key(c):
                c["expected"] = previous["expected"]
                kept += 1
        with open(path, "w") as handle:
            handle.write(record.dump_cases(cases))
        total += len(cases)
        print("%-32s %4d cases" % (stem + ".json", len(cases)))
    print("total %d cases (%d kept their recorded verdict)" % (total, kept))


def compare():
    build()
    surprises = unsure = 0
    for stem in FILES:
        for name, c in load_existing(os.path.join(CASES_DIR, stem + ".json")).items():
            expected = c.get("expected") or {}
            guess = GUESSES.get(name)
            if guess is None:
                unsure += 1
                print("?     %-5s %s  %s" % (expected.get("verdict"), expected.get("status"), name))
            elif expected.get("verdict") != guess:
                surprises += 1
                print("GUESS %-5s got %-5s %s  %s  %s" % (guess, expected.get("verdict"),
                      expected.get("status"), name, expected.get("message", "")))
    print("%d surprises, %d unsure" % (surprises, unsure))


if __name__ == "__main__":
    if "--compare" in sys.argv[1:]:
        compare()
    else:
        write()
