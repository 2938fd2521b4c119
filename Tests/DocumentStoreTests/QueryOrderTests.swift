import DocumentModel
import DocumentStore
import Testing

/// Firestore's orders: explicit, implicit, and what they exclude.
@Suite("Query orders")
struct QueryOrderTests {
    static func people() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.put([
            "p/a": ["age": 30, "city": "Paris"], "p/b": ["age": 25, "city": "Oslo"], "p/c": ["age": 30, "city": "Lima"],
            "p/d": ["city": "Rome"], "p/e": ["age": 25.0, "city": "Paris"],
        ])
        return fixture
    }

    @Test("rule: without orders or inequalities, results come in document-name order")
    func nameOrder() throws {
        let fixture = try Self.people()
        #expect(try fixture.ids(fixture.query("p")) == ["a", "b", "c", "d", "e"])
    }

    @Test("rule: a document lacking an order-by field is excluded")
    func missingOrderFieldExcluded() throws {
        let fixture = try Self.people()
        #expect(try fixture.ids(fixture.query("p", orderBy: [try asc("age")])) == ["b", "e", "a", "c"])
    }

    @Test("rule: ties are broken by __name__ in the direction of the last explicit order")
    func tiesByName() throws {
        let fixture = try Self.people()
        #expect(try fixture.ids(fixture.query("p", orderBy: [try desc("age")])) == ["c", "a", "e", "b"])
        #expect(try fixture.ids(fixture.query("p", orderBy: [try asc("age"), try desc("city")])) == ["e", "b", "a", "c"])
    }

    @Test("rule: an inequality field is ordered implicitly, ascending without explicit orders")
    func implicitInequalityOrder() throws {
        let fixture = try Self.people()
        #expect(try fixture.ids(fixture.query("p", filter: filter("age", .greaterThan, 0))) == ["b", "e", "a", "c"])
    }

    @Test("rule: implicit inequality orders follow the explicit ones, in field-path order, in the last explicit direction")
    func implicitAfterExplicit() throws {
        let fixture = try Self.people()
        let query = try fixture.query(
            "p", filter: and(try filter("city", .greaterThan, "A"), try filter("age", .greaterThan, 0)),
            orderBy: [try desc("city")])
        // city descending, then age descending (implicit), then __name__ descending.
        #expect(try fixture.ids(query) == ["a", "e", "b", "c"])
        let twoInequalities = try fixture.query(
            "p", filter: and(try filter("city", .greaterThan, "A"), try filter("age", .greaterThan, 0)))
        // age first (field-path order), then city.
        #expect(try fixture.ids(twoInequalities) == ["b", "e", "c", "a"])
    }

    @Test("rule: an explicit order on another field may come before the inequality field")
    func explicitBeforeInequality() throws {
        let fixture = try Self.people()
        let query = try fixture.query("p", filter: filter("age", .greaterThan, 26), orderBy: [try asc("city")])
        #expect(try fixture.ids(query) == ["c", "a"])
    }

    @Test("rule: __name__ may be ordered descending (production Firestore; Google's emulator refuses the bare key scan)")
    func nameDescending() throws {
        let fixture = try Self.people()
        #expect(try fixture.ids(fixture.query("p", orderBy: [try desc("__name__")])) == ["e", "d", "c", "b", "a"])
    }

    @Test("rule: an equality filter does not change the order (name order within equal values)")
    func equalityKeepsNameOrder() throws {
        let fixture = try Self.people()
        #expect(try fixture.ids(fixture.query("p", filter: filter("city", .equal, "Paris"))) == ["a", "e"])
        #expect(try fixture.ids(fixture.query("p", filter: filter("city", .in, ["Rome", "Paris"]))) == ["a", "d", "e"])
    }

    @Test("rule: values of different types order by Firestore's type order")
    func typeOrder() throws {
        let fixture = try QueryFilterTests.mixed()
        #expect(
            try fixture.ids(fixture.query("c", orderBy: [try asc("x")]))
                == ["null", "false", "true", "nan", "minus", "zero", "one", "oneD", "two", "str", "arr", "map"])
        #expect(
            try fixture.ids(fixture.query("c", orderBy: [try desc("x")]))
                == ["map", "arr", "str", "two", "oneD", "one", "zero", "minus", "nan", "true", "false", "null"])
    }

    @Test("rule: a collection-group query orders names across collections by path segments")
    func groupNameOrder() throws {
        let fixture = try StoreFixture()
        try fixture.put([
            "u/a/posts/2": ["n": 1], "u/b/posts/1": ["n": 1], "posts/z": ["n": 1], "u/a-/posts/0": ["n": 1],
            "u/a/posts/1/posts/9": ["n": 1],
        ])
        #expect(
            try fixture.paths(fixture.query("posts", group: true))
                == ["posts/z", "u/a/posts/1/posts/9", "u/a/posts/2", "u/a-/posts/0", "u/b/posts/1"])
        #expect(
            try fixture.paths(fixture.query("posts", group: true, filter: filter("n", .equal, 1), orderBy: [try desc("n")]))
                == ["u/b/posts/1", "u/a-/posts/0", "u/a/posts/2", "u/a/posts/1/posts/9", "posts/z"])
    }
}
