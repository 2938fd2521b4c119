import DocumentModel
import DocumentStore
import Testing

/// One test per filter rule of Firestore, as Google's emulator applies it.
@Suite("Query filters")
struct QueryFilterTests {
    /// Documents with one field `x` of many types; names differ from the value order.
    static func mixed() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.put([
            "c/null": ["x": nil], "c/false": ["x": false], "c/true": ["x": true], "c/nan": ["x": .double(.nan)],
            "c/minus": ["x": -1], "c/zero": ["x": 0.0], "c/one": ["x": 1], "c/oneD": ["x": 1.0], "c/two": ["x": 2.5],
            "c/str": ["x": "a"], "c/arr": ["x": [1, 2]], "c/map": ["x": ["a": 1]], "c/none": ["y": 1],
        ])
        return fixture
    }

    @Test("rule: == compares numbers by value (1 == 1.0) and never returns documents lacking the field")
    func equalityAcrossNumbers() throws {
        let fixture = try Self.mixed()
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .equal, 1))) == ["one", "oneD"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .equal, 1.0))) == ["one", "oneD"])
    }

    @Test("rule: == null and == NaN match nothing, without error (clients send IS_NULL / IS_NAN)")
    func equalityWithNullOrNaN() throws {
        let fixture = try Self.mixed()
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .equal, nil))).isEmpty)
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .equal, .double(.nan)))).isEmpty)
    }

    @Test("rule: IS_NULL and IS_NAN match null and NaN only")
    func unaryNullAndNaN() throws {
        let fixture = try Self.mixed()
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .isNull))) == ["null"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .isNaN))) == ["nan"])
    }

    @Test("rule: IS_NOT_NULL matches every present non-null value, NaN included, ordered by the field")
    func isNotNull() throws {
        let fixture = try Self.mixed()
        #expect(
            try fixture.ids(fixture.query("c", filter: filter("x", .isNotNull)))
                == ["false", "true", "nan", "minus", "zero", "one", "oneD", "two", "str", "arr", "map"])
    }

    @Test("rule: IS_NOT_NAN excludes NaN, null and missing fields")
    func isNotNaN() throws {
        let fixture = try Self.mixed()
        #expect(
            try fixture.ids(fixture.query("c", filter: filter("x", .isNotNaN)))
                == ["false", "true", "minus", "zero", "one", "oneD", "two", "str", "arr", "map"])
    }

    @Test("rule: range filters stay within the operand's type and never match NaN")
    func rangesWithinType() throws {
        let fixture = try Self.mixed()
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .lessThan, 2))) == ["minus", "zero", "one", "oneD"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .greaterThanOrEqual, .double(-.infinity))))
            == ["minus", "zero", "one", "oneD", "two"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .greaterThan, false))) == ["true"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .greaterThan, ""))) == ["str"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .lessThan, [1, 3]))) == ["arr"])
    }

    @Test("rule: range filters on null or NaN match nothing")
    func rangesOnNullOrNaN() throws {
        let fixture = try Self.mixed()
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .greaterThanOrEqual, nil))).isEmpty)
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .lessThan, .double(.nan)))).isEmpty)
    }

    @Test("rule: != excludes null and missing fields, includes NaN, orders by the field")
    func notEqual() throws {
        let fixture = try Self.mixed()
        #expect(
            try fixture.ids(fixture.query("c", filter: filter("x", .notEqual, 1)))
                == ["false", "true", "nan", "minus", "zero", "two", "str", "arr", "map"])
    }

    @Test("rule: != null matches nothing; != NaN matches every non-null value, NaN included")
    func notEqualNullOrNaN() throws {
        let fixture = try Self.mixed()
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .notEqual, nil))).isEmpty)
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .notEqual, .double(.nan)))).count == 11)
    }

    @Test("rule: not-in excludes null and missing fields; a null in the list matches nothing; NaN in the list is ignored")
    func notIn() throws {
        let fixture = try Self.mixed()
        #expect(
            try fixture.ids(fixture.query("c", filter: filter("x", .notIn, [1, "a", [1, 2]])))
                == ["false", "true", "nan", "minus", "zero", "two", "map"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .notIn, [1, nil]))).isEmpty)
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .notIn, [1, .double(.nan)]))).contains("nan"))
    }

    @Test("rule: in matches any listed value; null and NaN in the list are ignored; arrays match whole arrays")
    func inList() throws {
        let fixture = try Self.mixed()
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .in, [nil, .double(.nan), 2.5, "a"]))) == ["str", "two"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .in, [[1, 2]]))) == ["arr"])
    }

    @Test("rule: array-contains matches an element (1 matches 1.0); null and NaN match nothing")
    func arrayContains() throws {
        let fixture = try StoreFixture()
        try fixture.put([
            "c/a": ["tags": [1.0, "x", ["k": 1]]], "c/b": ["tags": [2, .double(.nan), nil]], "c/c": ["tags": 1],
        ])
        #expect(try fixture.ids(fixture.query("c", filter: filter("tags", .arrayContains, 1))) == ["a"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("tags", .arrayContains, ["k": 1]))) == ["a"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("tags", .arrayContains, .double(.nan)))).isEmpty)
        #expect(try fixture.ids(fixture.query("c", filter: filter("tags", .arrayContains, nil))).isEmpty)
    }

    @Test("rule: array-contains-any matches any element, once per document, ignoring null and NaN")
    func arrayContainsAny() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["tags": [1, 2, 3]], "c/b": ["tags": [3, 4]], "c/c": ["tags": [.double(.nan)]]])
        #expect(try fixture.ids(fixture.query("c", filter: filter("tags", .arrayContainsAny, [3, 1, 9]))) == ["a", "b"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("tags", .arrayContainsAny, [.double(.nan), nil]))).isEmpty)
    }

    @Test("rule: NaN inside arrays and maps equals NaN (only a top-level NaN operand is special)")
    func nestedNaN() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": [1, .double(.nan)]], "c/m": ["x": ["k": .double(.nan)]]])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .equal, [1, .double(.nan)]))) == ["a"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .equal, ["k": .double(.nan)]))) == ["m"])
    }

    @Test("rule: maps are indexed whole and field by field; dotted paths reach into them")
    func mapsAndNestedFields() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["m": ["k": 1, "n": ["z": "deep"]]], "c/b": ["m": ["k": 2]], "c/c": ["m": 5]])
        #expect(try fixture.ids(fixture.query("c", filter: filter("m.k", .equal, 2))) == ["b"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("m.n.z", .equal, "deep"))) == ["a"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("m", .equal, ["k": 2]))) == ["b"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("m", .greaterThan, ["k": 1]))) == ["a", "b"])
    }

    @Test("rule: AND requires every filter; several inequality fields are allowed")
    func conjunction() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1, "y": 2], "c/b": ["x": 2, "y": 1], "c/c": ["x": 3, "y": 3]])
        let both = and(try filter("x", .greaterThan, 1), try filter("y", .lessThan, 3))
        #expect(try fixture.ids(fixture.query("c", filter: both)) == ["b"])
        #expect(try fixture.ids(fixture.query("c", filter: .composite(.and, []))) == ["a", "b", "c"])
    }

    @Test("rule: OR returns documents matching any branch, including ones lacking the other branches' fields")
    func disjunction() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1], "c/b": ["y": "d"], "c/c": ["x": 2, "y": "d"], "c/d": ["x": 3]])
        let either = or(try filter("x", .equal, 1), try filter("y", .equal, "d"))
        #expect(try fixture.ids(fixture.query("c", filter: either)) == ["a", "b", "c"])
    }

    @Test("rule: an inequality in an OR branch orders by its field, which excludes documents lacking it")
    func disjunctionWithInequality() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 5], "c/b": ["y": "d"], "c/c": ["x": 2, "y": "d"]])
        let either = or(try filter("x", .greaterThan, 1), try filter("y", .equal, "d"))
        #expect(try fixture.ids(fixture.query("c", filter: either)) == ["c", "a"])
    }

    @Test("rule: nested AND/OR evaluate as written")
    func nestedComposites() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1, "y": 1], "c/b": ["x": 1, "y": 2], "c/c": ["x": 2, "y": 2]])
        let nested = or(and(try filter("x", .equal, 1), try filter("y", .equal, 2)), try filter("x", .equal, 2))
        #expect(try fixture.ids(fixture.query("c", filter: nested)) == ["b", "c"])
    }

    @Test("rule: filters on __name__ compare document references; other collections' names just do not match")
    func nameFilters() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": [:], "c/b": [:], "c/c": [:]])
        #expect(try fixture.ids(fixture.query("c", filter: filter("__name__", .greaterThan, fixture.reference("c/a")))) == ["b", "c"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("__name__", .in, [fixture.reference("c/c"), fixture.reference("c/a")]))) == ["a", "c"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("__name__", .notEqual, fixture.reference("c/b")))) == ["a", "c"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("__name__", .equal, fixture.reference("other/a")))).isEmpty)
    }

    @Test("rule: strings compare by UTF-8 bytes without normalization")
    func stringBytes() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/composed": ["s": "\u{E9}"], "c/decomposed": ["s": "e\u{301}"], "c/emoji": ["s": "\u{1F600}"], "c/bmp": ["s": "\u{FFFF}"]])
        #expect(try fixture.ids(fixture.query("c", filter: filter("s", .equal, "\u{E9}"))) == ["composed"])
        #expect(try fixture.ids(fixture.query("c", orderBy: [try asc("s")])) == ["decomposed", "composed", "bmp", "emoji"])
    }
}
