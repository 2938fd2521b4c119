import DocumentModel
import DocumentStore
import Testing

/// The index holds one ascending entry per field value; descending orders read the same keys
/// backwards. Ties on the ordered field come out of a backward scan in descending name order,
/// which is Firestore's implicit order after a descending field; an explicit ascending
/// `__name__` after a descending field (or the reverse) is not what the scan yields, and is
/// sorted within each run of equal values.
@Suite("Descending orders from the ascending index")
struct DescendingOrderTests {
    /// `age` ties at 30 (a, c, f) and at 25 (b, and e with the double 25.0); d has no age.
    static func people() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.put([
            "p/a": ["age": 30, "city": "Paris"], "p/b": ["age": 25, "city": "Oslo"], "p/c": ["age": 30, "city": "Lima"],
            "p/d": ["city": "Rome"], "p/e": ["age": 25.0, "city": "Paris"], "p/f": ["age": 30, "city": "Oslo"],
            "p/g": ["age": 40, "city": "Lima"],
        ])
        return fixture
    }

    @Test("layout: a document has one index entry per field, no per-document entry and no descending copies")
    func oneEntryPerField() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("p/a")
        let time = Timestamp(microsecondsSinceEpoch: 1_000_000)
        let document = Document(name: name, fields: ["age": 30, "city": "Paris"], createTime: time, updateTime: time)
        #expect(StorageKeys.indexKeys(of: document, groupID: 1).count == 2)
    }

    @Test("plan: a descending order is a backward ordered scan, ties in descending name order")
    func descendingScan() throws {
        let fixture = try Self.people()
        let query = try fixture.query("p", orderBy: [try desc("age")])
        let plan = try fixture.store.explain(query)
        #expect(plan.strategy == .orderedIndexScan(field: try FieldPath("age"), descending: true))
        #expect(plan.streamsInOrder)
        #expect(try fixture.ids(query) == ["g", "f", "c", "a", "e", "b"])
    }

    @Test("rule: an explicit __name__ order against the field's direction sorts each run of ties")
    func mixedDirections() throws {
        let fixture = try Self.people()
        let descendingThenName = try fixture.query("p", orderBy: [try desc("age"), try asc("__name__")])
        #expect(try fixture.store.explain(descendingThenName).strategy == .orderedIndexScan(field: try FieldPath("age"), descending: true))
        #expect(try fixture.ids(descendingThenName) == ["g", "a", "c", "f", "b", "e"])
        let ascendingThenName = try fixture.query("p", orderBy: [try asc("age"), try desc("__name__")])
        #expect(try fixture.ids(ascendingThenName) == ["e", "b", "f", "c", "a", "g"])
        // A second field in the other direction: city ascending within each age, then name
        // ascending (the direction of the last explicit order).
        let descendingThenCity = try fixture.query("p", orderBy: [try desc("age"), try asc("city")])
        #expect(try fixture.ids(descendingThenCity) == ["g", "c", "f", "a", "b", "e"])
    }

    @Test("rule: limit and offset apply after the backward scan's order")
    func limitAndOffset() throws {
        let fixture = try Self.people()
        #expect(try fixture.ids(fixture.query("p", orderBy: [try desc("age")], limit: 3)) == ["g", "f", "c"])
        #expect(try fixture.ids(fixture.query("p", orderBy: [try desc("age")], offset: 1, limit: 3)) == ["f", "c", "a"])
        #expect(try fixture.ids(fixture.query("p", orderBy: [try desc("age"), try asc("__name__")], limit: 3)) == ["g", "a", "c"])
        #expect(
            try fixture.ids(fixture.query("p", orderBy: [try desc("age"), try asc("__name__")], offset: 2, limit: 2))
                == ["c", "f"])
    }

    @Test("rule: cursors on a descending order bound the backward scan, with names as tiebreakers")
    func cursors() throws {
        let fixture = try Self.people()
        let order = [try desc("age")]
        #expect(
            try fixture.ids(fixture.query("p", orderBy: order, startAt: QueryCursor(values: [30], before: true)))
                == ["f", "c", "a", "e", "b"])
        #expect(
            try fixture.ids(fixture.query("p", orderBy: order, endAt: QueryCursor(values: [25], before: true)))
                == ["g", "f", "c", "a"])
        // __name__ descending, as the clients spell out the implicit order for a snapshot cursor:
        // after (30, p/c) come a, then the 25s.
        let afterC = QueryCursor(values: [30, try fixture.reference("p/c")], before: false)
        #expect(
            try fixture.ids(fixture.query("p", orderBy: order + [try desc("__name__")], startAt: afterC, limit: 2))
                == ["a", "e"])
        // Explicit __name__ ascending: after (30, p/a) come c and f, then the 25s.
        let afterA = QueryCursor(values: [30, try fixture.reference("p/a")], before: false)
        #expect(
            try fixture.ids(fixture.query("p", orderBy: [try desc("age"), try asc("__name__")], startAt: afterA))
                == ["c", "f", "b", "e"])
        #expect(
            try fixture.ids(
                fixture.query("p", orderBy: [try desc("age"), try asc("__name__")], startAt: afterA, limit: 1))
                == ["c"])
    }

    @Test("rule: a range filter with a descending order reads its interval backwards")
    func rangeDescending() throws {
        let fixture = try Self.people()
        let query = try fixture.query("p", filter: filter("age", .lessThan, 40), orderBy: [try desc("age")], limit: 4)
        #expect(try fixture.store.explain(query).strategy == .orderedIndexScan(field: try FieldPath("age"), descending: true))
        #expect(try fixture.ids(query) == ["f", "c", "a", "e"])
    }
}
