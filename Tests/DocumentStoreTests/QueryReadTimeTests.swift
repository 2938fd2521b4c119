import DocumentModel
import DocumentStore
import Testing

/// Queries and aggregations at a past read time answer what they would have then.
@Suite("Queries at a past read time")
struct QueryReadTimeTests {
    @Test("rule: a query at a past read time sees the documents and values of then, in the order of then")
    func pastQuery() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1], "c/b": ["x": 2], "c/c": ["x": 3]])
        let then = try #require(fixture.store.lastCommitTime)
        fixture.clock.advance(bySeconds: 5)
        try fixture.store.commit([
            .set(try fixture.name("c/a"), fields: ["x": 9]), .delete(try fixture.name("c/b")),
            .set(try fixture.name("c/d"), fields: ["x": 0]),
        ])
        let query = try fixture.query("c", filter: filter("x", .lessThan, 5), orderBy: [try desc("x")])
        let past = try fixture.store.runQuery(query, readTime: then)
        #expect(past.documents.map(\.name.documentID) == ["c", "b", "a"])
        #expect(past.readTime == then)
        #expect(try fixture.ids(query) == ["c", "d"])
    }

    @Test("rule: aggregations at a past read time count and sum the documents of then")
    func pastAggregation() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1], "c/b": ["x": 2]])
        let then = try #require(fixture.store.lastCommitTime)
        fixture.clock.advance(bySeconds: 5)
        try fixture.store.commit([.delete(try fixture.name("c/b"))])
        let aggregation = AggregationQuery(
            query: try fixture.query("c"), aggregations: [Aggregation(.count(upTo: nil)), Aggregation(.sum(try FieldPath("x")))])
        #expect(try fixture.store.runAggregation(aggregation, readTime: then).fields == ["field_1": 2, "field_2": 3])
        #expect(try fixture.store.runAggregation(aggregation).fields == ["field_1": 1, "field_2": 1])
    }

    @Test("rule: a collection-group query at a past read time finds the group at any depth")
    func pastGroupQuery() throws {
        let fixture = try StoreFixture()
        try fixture.put(["a/1/g/x": ["v": 1], "g/y": ["v": 2], "b/2/c/3/g/z": ["v": 3]])
        let then = try #require(fixture.store.lastCommitTime)
        fixture.clock.advance(bySeconds: 5)
        try fixture.store.commit([.delete(try fixture.name("g/y"))])
        let query = try fixture.query("g", group: true, orderBy: [try desc("v")])
        #expect(try fixture.store.runQuery(query, readTime: then).documents.map(\.name.documentID) == ["z", "y", "x"])
    }

    @Test("rule: read times out of the retention window are refused for queries too")
    func bounds() throws {
        let fixture = try StoreFixture(retentionSeconds: 60)
        try fixture.put(["c/a": ["x": 1]])
        fixture.clock.advance(bySeconds: 120)
        let old = #expect(throws: FirestoreError.self) {
            try fixture.store.runQuery(try fixture.query("c"), readTime: StoreFixture.start)
        }
        #expect(old?.code == .failedPrecondition)
    }
}
