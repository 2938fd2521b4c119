import DocumentModel
import DocumentStore
import Testing

/// Cursors, offset, limit, limit-to-last, projections and scopes.
@Suite("Query cursors, limits, projections and scopes")
struct QueryCursorTests {
    static func numbers() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.put([
            "n/a": ["v": 1, "w": "x"], "n/b": ["v": 2, "w": "y"], "n/c": ["v": 2, "w": "z"], "n/d": ["v": 3],
            "n/e": ["v": "s"],
        ])
        return fixture
    }

    @Test("rule: startAt includes the position, startAfter excludes it (partial cursors compare a prefix)")
    func startCursors() throws {
        let fixture = try Self.numbers()
        let byV = [try asc("v")]
        #expect(try fixture.ids(fixture.query("n", orderBy: byV, startAt: QueryCursor(values: [2], before: true))) == ["b", "c", "d", "e"])
        #expect(try fixture.ids(fixture.query("n", orderBy: byV, startAt: QueryCursor(values: [2], before: false))) == ["d", "e"])
    }

    @Test("rule: endAt includes the position, endBefore excludes it")
    func endCursors() throws {
        let fixture = try Self.numbers()
        let byV = [try asc("v")]
        #expect(try fixture.ids(fixture.query("n", orderBy: byV, endAt: QueryCursor(values: [2], before: false))) == ["a", "b", "c"])
        #expect(try fixture.ids(fixture.query("n", orderBy: byV, endAt: QueryCursor(values: [2], before: true))) == ["a"])
    }

    @Test("rule: a cursor with the __name__ value positions between equal values")
    func nameInCursor() throws {
        let fixture = try Self.numbers()
        let cursor = QueryCursor(values: [2, try fixture.reference("n/b")], before: false)
        let query = try fixture.query("n", orderBy: [try asc("v"), try asc("__name__")], startAt: cursor)
        #expect(try fixture.ids(query) == ["c", "d", "e"])
    }

    @Test("rule: cursors follow descending orders")
    func descendingCursors() throws {
        let fixture = try Self.numbers()
        let query = try fixture.query(
            "n", orderBy: [try desc("v")], startAt: QueryCursor(values: [3], before: false),
            endAt: QueryCursor(values: [1], before: true))
        #expect(try fixture.ids(query) == ["c", "b"])
    }

    @Test("rule: a cursor value of another type compares by type order")
    func cursorAcrossTypes() throws {
        let fixture = try Self.numbers()
        #expect(try fixture.ids(fixture.query("n", orderBy: [try asc("v")], startAt: QueryCursor(values: ["a"], before: true))) == ["e"])
    }

    @Test("rule: __name__ cursors page through a collection")
    func nameCursors() throws {
        let fixture = try Self.numbers()
        let after = QueryCursor(values: [try fixture.reference("n/b")], before: false)
        #expect(try fixture.ids(fixture.query("n", orderBy: [try asc("__name__")], startAt: after, limit: 2)) == ["c", "d"])
        let descending = try fixture.query("n", orderBy: [try desc("__name__")], startAt: after)
        #expect(try fixture.ids(descending) == ["a"])
    }

    @Test("rule: offset skips results after the cursors, limit caps them")
    func offsetAndLimit() throws {
        let fixture = try Self.numbers()
        #expect(try fixture.ids(fixture.query("n", orderBy: [try asc("v")], offset: 1, limit: 2)) == ["b", "c"])
        #expect(try fixture.ids(fixture.query("n", offset: 10)).isEmpty)
        #expect(try fixture.ids(fixture.query("n", limit: 0)).isEmpty)
    }

    @Test("rule: limit-to-last is the reversed query with a limit, reversed by the client")
    func limitToLast() throws {
        let fixture = try Self.numbers()
        // Clients send orderBy v desc, __name__ desc with the limit, then reverse the results.
        let reversed = try fixture.query("n", orderBy: [try desc("v"), try desc("__name__")], limit: 2)
        #expect(try fixture.ids(reversed).reversed() == ["d", "e"])
        let numbersOnly = try fixture.query(
            "n", filter: filter("v", .lessThan, 10), orderBy: [try desc("v"), try desc("__name__")], limit: 3)
        #expect(try fixture.ids(numbersOnly).reversed() == ["b", "c", "d"])
    }

    @Test("rule: select returns only the chosen fields, keeping map shapes and both times")
    func projection() throws {
        let fixture = try StoreFixture()
        try fixture.put(["s/a": ["x": 1, "y": 2, "m": ["k": 1, "j": ["z": 3]]]])
        let result = try fixture.store.runQuery(
            fixture.query("s", select: [try FieldPath("x"), try FieldPath("m.j.z"), try FieldPath("nope")]))
        let document = try #require(result.documents.first)
        #expect(document.fields == ["x": 1, "m": ["j": ["z": 3]]])
        #expect(document.createTime == document.updateTime)
    }

    @Test("rule: select of __name__ alone (or of nothing) returns documents without fields")
    func nameOnlyProjection() throws {
        let fixture = try StoreFixture()
        try fixture.put(["s/a": ["x": 1]])
        for select in [[FieldPath.documentName], []] {
            let document = try #require(try fixture.store.runQuery(fixture.query("s", select: select)).documents.first)
            #expect(document.fields.isEmpty)
            #expect(document.name.path.description == "s/a")
        }
    }

    @Test("rule: a collection query returns only direct documents of that collection under its parent")
    func collectionScope() throws {
        let fixture = try StoreFixture()
        try fixture.put([
            "u/a": ["v": 1], "u/a/u/x": ["v": 1], "u/b": ["v": 1], "w/a/u/y": ["v": 1], "u/c/sub/z": ["v": 1],
        ])
        #expect(try fixture.paths(fixture.query("u", filter: filter("v", .equal, 1))) == ["u/a", "u/b"])
        #expect(try fixture.paths(fixture.query("u", parent: "w/a")) == ["w/a/u/y"])
        #expect(try fixture.paths(fixture.query("u", parent: "u/a", orderBy: [try asc("v")])) == ["u/a/u/x"])
    }

    @Test("rule: a collection-group query returns the group's documents at any depth below its parent")
    func groupScope() throws {
        let fixture = try StoreFixture()
        try fixture.put(["u/a": ["v": 1], "u/a/u/x": ["v": 2], "w/a/u/y": ["v": 3], "w/b/u/z": ["v": 4]])
        #expect(try fixture.paths(fixture.query("u", group: true, filter: filter("v", .greaterThan, 1))) == ["u/a/u/x", "w/a/u/y", "w/b/u/z"])
        #expect(try fixture.paths(fixture.query("u", parent: "w/a", group: true)) == ["w/a/u/y"])
    }

    @Test("rule: an empty collection id queries every collection (directly, or at any depth with all_descendants)")
    func kindless() throws {
        let fixture = try StoreFixture()
        try fixture.put(["a/1": [:], "b/2": [:], "a/1/c/3": [:], "d/4/e/5": [:]])
        #expect(try fixture.paths(fixture.query("")) == ["a/1", "b/2"])
        #expect(try fixture.paths(fixture.query("", group: true)) == ["a/1", "a/1/c/3", "b/2", "d/4/e/5"])
        #expect(try fixture.paths(fixture.query("", parent: "a/1", group: true)) == ["a/1/c/3"])
        let named = try fixture.query("", group: true, filter: filter("__name__", .greaterThan, fixture.reference("a/1/c/3")))
        #expect(try fixture.paths(named) == ["b/2", "d/4/e/5"])
    }
}
