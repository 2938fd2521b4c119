import DocumentModel
import DocumentStore
import Testing

/// Numeric document ids (`__id<int64>__`) in queries and listings: they sort before every other
/// id, by value, wherever names are ordered. The expected orders were recorded from Google's
/// emulator with the official Python client.
@Suite("Numeric document ids in queries and listings")
struct NumericIDQueryTests {
    /// The ids of collection `c`, in the order Google's emulator returns them.
    static let ordered = [
        "__id-9223372036854775808__", "__id-5__", "__id1__", "__id3__", "__id12__", "__id9223372036854775807__",
        "0", "A", "_", "__idz", "a",
    ]

    /// `c/<id>` for every id, each with a reference to itself in `ref` and its position in `i`;
    /// and a subcollection `s` under `c/__id3__`, `c/__id-5__` and `c/a`.
    static func tree() throws -> StoreFixture {
        let fixture = try StoreFixture()
        var writes: [Write] = []
        for (position, id) in ordered.reversed().enumerated() {
            let name = try fixture.name("c/\(id)")
            writes.append(.set(name, fields: ["ref": .reference(name), "i": .integer(Int64(position))]))
        }
        for path in ["c/__id3__/s/x", "c/__id3__/s/__id2__", "c/__id-5__/s/y", "c/a/s/__id-1__"] {
            writes.append(.set(try fixture.name(path), fields: ["n": 1]))
        }
        try fixture.store.commit(writes)
        return fixture
    }

    @Test("rule: a collection's documents come in name order, numeric ids first by value, both directions")
    func nameOrder() throws {
        let fixture = try Self.tree()
        #expect(try fixture.ids(fixture.query("c")) == Self.ordered)
        #expect(try fixture.ids(fixture.query("c", orderBy: [try desc("__name__")])) == Self.ordered.reversed())
        // Ties on another field are broken by name in the same order.
        #expect(try fixture.ids(fixture.query("s", group: true, orderBy: [try asc("n")])) == ["y", "__id2__", "x", "__id-1__"])
    }

    @Test("rule: __name__ range filters compare numeric ids by value and before every string id")
    func nameFilters() throws {
        let fixture = try Self.tree()
        let range = and(
            try filter("__name__", .greaterThanOrEqual, fixture.reference("c/__id-5__")),
            try filter("__name__", .lessThan, fixture.reference("c/__id12__")))
        #expect(try fixture.ids(fixture.query("c", filter: range)) == ["__id-5__", "__id1__", "__id3__"])
        let beforeStrings = try filter("__name__", .lessThan, fixture.reference("c/0"))
        #expect(try fixture.ids(fixture.query("c", filter: beforeStrings)) == Array(Self.ordered.prefix(6)))
        let afterNumbers = try filter("__name__", .greaterThan, fixture.reference("c/__id9223372036854775807__"))
        #expect(try fixture.ids(fixture.query("c", filter: afterNumbers)) == Array(Self.ordered.suffix(5)))
        let inList = try filter("__name__", .in, .array([fixture.reference("c/a"), fixture.reference("c/__id3__")]))
        #expect(try fixture.ids(fixture.query("c", filter: inList)) == ["__id3__", "a"])
    }

    @Test("rule: cursors on __name__ position by the numeric order")
    func cursors() throws {
        let fixture = try Self.tree()
        let byName = [try asc("__name__")]
        let after = QueryCursor(values: [try fixture.reference("c/__id3__")], before: false)
        #expect(try fixture.ids(fixture.query("c", orderBy: byName, startAt: after)) == Array(Self.ordered.dropFirst(4)))
        let before = QueryCursor(values: [try fixture.reference("c/A")], before: true)
        #expect(try fixture.ids(fixture.query("c", orderBy: byName, endAt: before)) == Array(Self.ordered.prefix(7)))
        // A field cursor followed by a name cursor breaks the tie by the numeric order.
        let tie = QueryCursor(values: [1, try fixture.reference("c/__id3__/s/__id2__")], before: false)
        let query = try fixture.query("s", group: true, orderBy: [try asc("n"), try asc("__name__")], startAt: tie)
        #expect(try fixture.paths(query) == ["c/__id3__/s/x", "c/a/s/__id-1__"])
    }

    @Test("rule: reference values holding numeric ids order by the same rule, in order-by and range filters")
    func referenceValues() throws {
        let fixture = try Self.tree()
        #expect(try fixture.ids(fixture.query("c", orderBy: [try asc("ref")])) == Self.ordered)
        #expect(try fixture.ids(fixture.query("c", orderBy: [try desc("ref")])) == Self.ordered.reversed())
        let greater = try filter("ref", .greaterThan, fixture.reference("c/__id12__"))
        #expect(try fixture.ids(fixture.query("c", filter: greater)) == Array(Self.ordered.suffix(6)))
        let equal = try filter("ref", .equal, fixture.reference("c/__id-5__"))
        #expect(try fixture.ids(fixture.query("c", filter: equal)) == ["__id-5__"])
    }

    @Test("rule: collection-group and all-descendant scans keep the order below numeric parents")
    func groupsAndDescendants() throws {
        let fixture = try Self.tree()
        #expect(
            try fixture.paths(fixture.query("s", group: true))
                == ["c/__id-5__/s/y", "c/__id3__/s/__id2__", "c/__id3__/s/x", "c/a/s/__id-1__"])
        // What a recursive delete of c/__id3__ reads: everything below it.
        #expect(try fixture.paths(fixture.query("", parent: "c/__id3__", group: true)) == ["c/__id3__/s/__id2__", "c/__id3__/s/x"])
        #expect(try fixture.paths(fixture.query("s", parent: "c/__id3__")) == ["c/__id3__/s/__id2__", "c/__id3__/s/x"])
    }

    @Test("rule: a query at a past read time (a documents-table scan) orders numeric ids the same way")
    func pastReadTime() throws {
        let fixture = try Self.tree()
        let then = try #require(fixture.store.lastCommitTime)
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.delete(try fixture.name("c/__id1__"))])
        let past = try fixture.store.runQuery(try fixture.query("c"), readTime: then)
        #expect(past.documents.map(\.name.documentID) == Self.ordered)
        #expect(try fixture.ids(fixture.query("c")) == Self.ordered.filter { $0 != "__id1__" })
    }

    @Test("rule: listing returns numeric ids first, pages across them, and lists missing numeric parents")
    func listing() throws {
        let fixture = try Self.tree()
        try fixture.store.commit([.set(try fixture.name("c/__id2__/t/z"), fields: [:])])
        func list(pageSize: Int = 0, token: String? = nil, showMissing: Bool = false) throws -> DocumentListPage {
            try fixture.store.listDocuments(
                parent: .root, collectionID: "c", of: fixture.database, pageSize: pageSize, pageToken: token,
                showMissing: showMissing)
        }
        #expect(try list().documents.map(\.name.documentID) == Self.ordered)
        var ids: [String] = []
        var token: String?
        repeat {
            let page = try list(pageSize: 3, token: token, showMissing: true)
            ids += page.documents.map(\.name.documentID)
            token = page.nextPageToken
        } while token != nil && ids.count < 100
        var withMissing = Self.ordered
        withMissing.insert("__id2__", at: 3)
        #expect(ids == withMissing)
        let collections = try fixture.store.listCollectionIDs(parent: try ResourcePath("c/__id2__"), of: fixture.database)
        #expect(collections.collectionIDs == ["t"])
    }
}
