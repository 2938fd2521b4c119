import DocumentModel
import DocumentStore
import Testing

/// Which plan the planner picks (`DocumentStore.explain`).
@Suite("Query plans")
struct QueryPlanTests {
    /// 200 users: `country` has 4 values, `age` 50, `team` is unique per 10 users.
    static func users() throws -> StoreFixture {
        let fixture = try StoreFixture()
        let countries: [Value] = ["FR", "NZ", "US", "JP"]
        var writes: [Write] = []
        for index in 0..<200 {
            var fields = MapValue()
            fields["country"] = countries[index % 4]
            fields["age"] = .integer(Int64(index % 50))
            fields["team"] = .integer(Int64(index / 10))
            fields["tags"] = .array([.string("t\(index % 3)"), "all"])
            writes.append(.set(try fixture.name("users/u\(1000 + index)"), fields: fields))
        }
        try fixture.store.commit(writes)
        return fixture
    }

    @Test("plan: an equality reads the index in name order and streams (a limit stops it)")
    func equality() throws {
        let fixture = try Self.users()
        let query = try fixture.query("users", filter: filter("country", .equal, "FR"), limit: 5)
        let plan = try fixture.store.explain(query)
        #expect(plan.strategy == .equalityIndexScan(fields: [try FieldPath("country")]))
        #expect(plan.streamsInOrder)
        #expect(try fixture.ids(query) == ["u1000", "u1004", "u1008", "u1012", "u1016"])
    }

    @Test("plan: several equalities intersect their index ranges (zig-zag join)")
    func intersection() throws {
        let fixture = try Self.users()
        let query = try fixture.query(
            "users", filter: and(try filter("country", .equal, "NZ"), try filter("team", .equal, 3), try filter("tags", .arrayContains, "t1")))
        let plan = try fixture.store.explain(query)
        #expect(plan.strategy == .equalityIndexScan(fields: [try FieldPath("country"), try FieldPath("team"), try FieldPath("tags")]))
        // NZ: index % 4 == 1; team 3: indexes 30...39; t1: index % 3 == 1.
        #expect(try fixture.ids(query) == ["u1037"])
    }

    @Test("plan: a range with an order on the same field is an ordered index scan")
    func orderedRange() throws {
        let fixture = try Self.users()
        let query = try fixture.query("users", filter: filter("age", .greaterThanOrEqual, 48), orderBy: [try desc("age")], limit: 3)
        let plan = try fixture.store.explain(query)
        #expect(plan.strategy == .orderedIndexScan(field: try FieldPath("age"), descending: true))
        #expect(plan.streamsInOrder)
        #expect(try fixture.ids(query) == ["u1199", "u1149", "u1099"])
    }

    @Test("plan: an order without filters is an ordered index scan of that field")
    func orderOnly() throws {
        let fixture = try Self.users()
        let plan = try fixture.store.explain(try fixture.query("users", orderBy: [try asc("team")], limit: 1))
        #expect(plan.strategy == .orderedIndexScan(field: try FieldPath("team"), descending: false))
    }

    @Test("plan: a selective equality drives an ordered query on another field, then sorts")
    func selectiveEqualityDrives() throws {
        let fixture = try Self.users()
        let query = try fixture.query("users", filter: filter("team", .equal, 7), orderBy: [try desc("age")], limit: 3)
        #expect(try fixture.store.explain(query).strategy == .equalityIndexScan(fields: [try FieldPath("team")]))
        #expect(try fixture.store.explain(query).streamsInOrder == false)
        #expect(try fixture.ids(query) == ["u1079", "u1078", "u1077"])
    }

    @Test("plan: a collection without filters or orders is a collection scan in name order")
    func collectionScan() throws {
        let fixture = try Self.users()
        let plan = try fixture.store.explain(try fixture.query("users", limit: 2))
        #expect(plan.strategy == .collectionScan)
        #expect(plan.streamsInOrder)
    }

    @Test("plan: a collection scan reads the documents table from its name bounds to their end; descending is sorted")
    func collectionScanBounds() throws {
        let fixture = try Self.users()
        let name = FieldPath.documentName
        let after = try fixture.query(
            "users", filter: .field(name, .greaterThan, try fixture.reference("users/u1100")), limit: 3)
        #expect(try fixture.store.explain(after).strategy == .collectionScan)
        #expect(try fixture.ids(after) == ["u1101", "u1102", "u1103"])
        let between = try fixture.query(
            "users", orderBy: [Order(name)], startAt: QueryCursor(values: [try fixture.reference("users/u1197")], before: false),
            endAt: QueryCursor(values: [try fixture.reference("users/u1199")], before: true))
        #expect(try fixture.ids(between) == ["u1198"])
        let last = try fixture.query("users", orderBy: [Order(name, .descending)], limit: 2)
        #expect(try fixture.store.explain(last).strategy == .collectionScan)
        #expect(try fixture.store.explain(last).streamsInOrder == false)
        #expect(try fixture.ids(last) == ["u1199", "u1198"])
    }

    @Test("plan: a whole-collection count counts live documents of the collection (or group) without decoding them")
    func wholeCollectionCount() throws {
        let fixture = try Self.users()
        let then = try #require(fixture.store.lastCommitTime)
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([
            .delete(try fixture.name("users/u1000")), .set(try fixture.name("users/u1001/users/nested"), fields: ["x": 1]),
            .set(try fixture.name("other/o"), fields: [:]),
        ])
        let count = [Aggregation(.count(upTo: nil))]
        let collection = AggregationQuery(query: try fixture.query("users"), aggregations: count)
        let group = AggregationQuery(query: try fixture.query("users", group: true), aggregations: count)
        #expect(try fixture.store.explain(collection).countsIndexKeysOnly)
        #expect(try fixture.store.runAggregation(collection).fields["field_1"] == 199)
        #expect(try fixture.store.runAggregation(group).fields["field_1"] == 200)
        #expect(try fixture.store.runAggregation(collection, readTime: then).fields["field_1"] == 200)
        let limited = AggregationQuery(query: try fixture.query("users"), aggregations: [Aggregation(.count(upTo: 5))])
        #expect(try fixture.store.runAggregation(limited).fields["field_1"] == 5)
    }

    @Test("plan: filters no value passes read nothing")
    func empty() throws {
        let fixture = try Self.users()
        #expect(try fixture.store.explain(try fixture.query("users", filter: filter("age", .equal, nil))).strategy == .empty)
        #expect(try fixture.store.explain(try fixture.query("users", limit: 0)).strategy == .empty)
    }

    @Test("plan: an OR unites one candidate set per disjunction")
    func union() throws {
        let fixture = try Self.users()
        let query = try fixture.query("users", filter: or(try filter("team", .equal, 1), try filter("age", .lessThan, 1)))
        let plan = try fixture.store.explain(query)
        guard case .union(let parts) = plan.strategy else {
            Issue.record("expected a union, got \(plan)")
            return
        }
        #expect(parts.map(\.strategy) == [.equalityIndexScan(fields: [try FieldPath("team")]), .indexCandidates(field: try FieldPath("age"))])
        // Team 1 is indexes 10...19; age 0 is indexes 0, 50, 100 and 150.
        #expect(try fixture.ids(query).count == 14)
    }

    @Test("plan: a read at a past read time scans documents at that version")
    func pastRead() throws {
        let fixture = try Self.users()
        let then = try #require(fixture.store.lastCommitTime)
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.delete(try fixture.name("users/u1000"))])
        let query = try fixture.query("users", filter: filter("country", .equal, "FR"), limit: 1)
        #expect(try fixture.store.explain(query, readTime: then).strategy == .documentScan)
        #expect(try fixture.store.runQuery(query, readTime: then).documents.map(\.name.documentID) == ["u1000"])
        #expect(try fixture.ids(query) == ["u1004"])
    }

    @Test("plan: counts of equality, range and whole-collection queries read index keys only")
    func countFromIndex() throws {
        let fixture = try Self.users()
        let count = [Aggregation(.count(upTo: nil))]
        for filter in [try filter("country", .equal, "US"), try filter("age", .lessThan, 10), nil] {
            let query = AggregationQuery(query: try fixture.query("users", filter: filter), aggregations: count)
            #expect(try fixture.store.explain(query).countsIndexKeysOnly, "\(String(describing: filter))")
        }
        let mixed = AggregationQuery(
            query: try fixture.query("users", filter: and(try filter("country", .equal, "US"), try filter("age", .lessThan, 10))),
            aggregations: count)
        #expect(try fixture.store.explain(mixed).countsIndexKeysOnly == false)
        #expect(try fixture.store.runAggregation(mixed).fields["field_1"] == 10)
    }
}
