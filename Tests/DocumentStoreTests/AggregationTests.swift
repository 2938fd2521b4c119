import DocumentModel
import DocumentStore
import Testing

/// Count, sum and average with Google's emulator's numeric rules and names.
@Suite("Aggregations")
struct AggregationTests {
    func aggregate(
        _ fixture: StoreFixture, _ collection: String, _ aggregations: [Aggregation], filter: QueryFilter? = nil,
        limit: Int? = nil
    ) throws -> MapValue {
        try fixture.store.runAggregation(
            AggregationQuery(query: try fixture.query(collection, filter: filter, limit: limit), aggregations: aggregations)
        ).fields
    }

    func sumAndAverage(_ values: [Value]) throws -> (sum: Value?, average: Value?) {
        let fixture = try StoreFixture()
        try fixture.store.commit(try values.enumerated().map { .set(try fixture.name("n/d\($0.offset)"), fields: ["x": $0.element]) })
        let fields = try aggregate(fixture, "n", [Aggregation(.sum(try FieldPath("x"))), Aggregation(.average(try FieldPath("x")))])
        return (fields["field_1"], fields["field_2"])
    }

    @Test("rule: sum and avg refuse a projection and any filter on the name (Google's messages); count takes both")
    func refusedShapes() throws {
        let fixture = try StoreFixture()
        try fixture.put(["t/a": ["a": 1, "b": 2]])
        func error(_ query: Query, _ kind: Aggregation.Kind) -> FirestoreError? {
            #expect(throws: FirestoreError.self) {
                try fixture.store.runAggregation(AggregationQuery(query: query, aggregations: [Aggregation(kind)]))
            }
        }
        let b = try FieldPath("b")
        let outside = error(try fixture.query("t", select: [try FieldPath("a")]), .sum(b))
        #expect(outside?.code == .invalidArgument)
        #expect(outside?.message == "The aggregation property b is not present in the base query's property mask.")
        let inside = error(try fixture.query("t", select: [b]), .average(b))
        #expect(inside?.message == "Cannot apply property masks when aggregation fields are present.")
        let a = try fixture.reference("t/a")
        for filter in [try filter("__name__", .equal, a), try filter("__name__", .in, [a]),
                       or(try filter("__name__", .equal, a), try filter("a", .equal, 1))] {
            let named = error(try fixture.query("t", filter: filter), .sum(b))
            #expect(named?.code == .invalidArgument)
            #expect(named?.message.hasPrefix("This query requires an index that has fields [b] after __name__") == true)
        }
        let counted = try fixture.store.runAggregation(AggregationQuery(
            query: try fixture.query("t", filter: or(try filter("__name__", .equal, a), try filter("a", .equal, 1)),
                                     select: [try FieldPath("a")]),
            aggregations: [Aggregation(.count(upTo: nil))]))
        #expect(counted.fields["field_1"] == 1)
    }

    @Test("rule: unaliased aggregations are named field_1, field_2, ... counting only the unaliased ones")
    func names() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1]])
        let fields = try aggregate(
            fixture, "c",
            [Aggregation(.count(upTo: nil), alias: "n"), Aggregation(.sum(try FieldPath("x"))), Aggregation(.average(try FieldPath("x")), alias: ""), Aggregation(.count(upTo: nil), alias: "field_3")])
        #expect(fields.keys == ["field_1", "field_2", "field_3", "n"])
        #expect(fields["field_1"] == .integer(1))
    }

    @Test("rule: duplicate aliases (also with generated names), reserved aliases and empty lists are refused")
    func aliasRules() throws {
        let fixture = try StoreFixture()
        let duplicate = #expect(throws: FirestoreError.self) {
            try aggregate(fixture, "c", [Aggregation(.count(upTo: nil), alias: "field_1"), Aggregation(.count(upTo: nil))])
        }
        #expect(duplicate?.message == "Aggregation aliases contain duplicate alias: field_1.")
        let reserved = #expect(throws: FirestoreError.self) {
            try aggregate(fixture, "c", [Aggregation(.count(upTo: nil), alias: "__x__")])
        }
        #expect(reserved?.message == "The property.name \"__x__\" is reserved.")
        let empty = #expect(throws: FirestoreError.self) { try aggregate(fixture, "c", []) }
        #expect(empty?.message == "Aggregations can not be empty.")
        let six = #expect(throws: FirestoreError.self) {
            try aggregate(fixture, "c", (0..<6).map { Aggregation(.count(upTo: nil), alias: "a\($0)") })
        }
        #expect(six?.code == .invalidArgument)
        let name = #expect(throws: FirestoreError.self) {
            try aggregate(fixture, "c", [Aggregation(.sum(.documentName))])
        }
        #expect(name?.message == "Aggregations are not supported for the property: __key__")
    }

    @Test("rule: count honours up_to, the query's limit and offset; a negative up_to is refused")
    func count() throws {
        let fixture = try StoreFixture()
        try fixture.store.commit(try (0..<7).map { .set(try fixture.name("c/d\($0)"), fields: ["x": .integer(Int64($0))]) })
        #expect(try aggregate(fixture, "c", [Aggregation(.count(upTo: nil))])["field_1"] == 7)
        #expect(try aggregate(fixture, "c", [Aggregation(.count(upTo: 3))])["field_1"] == 3)
        #expect(try aggregate(fixture, "c", [Aggregation(.count(upTo: 0))])["field_1"] == 0)
        #expect(try aggregate(fixture, "c", [Aggregation(.count(upTo: nil))], limit: 5)["field_1"] == 5)
        #expect(try aggregate(fixture, "c", [Aggregation(.count(upTo: nil))], filter: filter("x", .greaterThan, 4))["field_1"] == 2)
        let negative = #expect(throws: FirestoreError.self) { try aggregate(fixture, "c", [Aggregation(.count(upTo: -1))]) }
        #expect(negative?.message == "The `up_to` value in a COUNT aggregation must be greater than or equal to zero.")
    }

    @Test("rule: sums of integers stay integers; the average is a double")
    func integerSum() throws {
        let result = try sumAndAverage([3, 3, 4])
        #expect(result.sum?.isIdentical(to: .integer(10)) == true)
        #expect(result.average?.isIdentical(to: .double(10.0 / 3)) == true)
    }

    @Test("rule: an integer sum that overflows 64 bits becomes a double; transient overflow does not")
    func overflow() throws {
        #expect(try sumAndAverage([.integer(.max), 1]).sum?.isIdentical(to: .double(0x1p63)) == true)
        #expect(try sumAndAverage([.integer(.min), -1]).sum?.isIdentical(to: .double(-0x1p63 - 1)) == true)
        #expect(try sumAndAverage([.integer(1 << 62), .integer(1 << 62), .integer(-(1 << 62))]).sum?.isIdentical(to: .integer(1 << 62)) == true)
    }

    @Test("rule: integers add exactly before a double joins them")
    func exactIntegers() throws {
        let result = try sumAndAverage([.integer(1 << 53), 1, 1, 0.0])
        #expect(result.sum?.isIdentical(to: .double(9_007_199_254_740_994)) == true)
        #expect(result.average?.isIdentical(to: .double(2_251_799_813_685_248.5)) == true)
    }

    @Test("rule: a double makes the sum a double; NaN makes it NaN; inf + -inf is NaN")
    func doubles() throws {
        #expect(try sumAndAverage([1, 2, 0.5]).sum?.isIdentical(to: .double(3.5)) == true)
        #expect(try sumAndAverage([1, .double(.nan)]).sum?.isNaN == true)
        #expect(try sumAndAverage([.double(.infinity), .double(-.infinity)]).average?.isNaN == true)
        #expect(try sumAndAverage([.double(.infinity), 1]).sum?.isIdentical(to: .double(.infinity)) == true)
        #expect(try sumAndAverage([0.1, 0.2, 0.3]).sum?.isIdentical(to: .double(0.6)) == true)
    }

    @Test("rule: non-numeric values and missing fields are ignored; sum of nothing is 0, average of nothing is null")
    func nonNumeric() throws {
        let result = try sumAndAverage(["s", true, nil, ["k": 1], 2])
        #expect(result.sum?.isIdentical(to: .integer(2)) == true)
        #expect(result.average?.isIdentical(to: .double(2)) == true)
        let none = try sumAndAverage(["s"])
        #expect(none.sum?.isIdentical(to: .integer(0)) == true)
        #expect(none.average == .null)
    }

    @Test("rule: aggregations apply to the query's results after its filter and limit")
    func overQuery() throws {
        let fixture = try StoreFixture()
        try fixture.store.commit(try (1...5).map { .set(try fixture.name("c/d\($0)"), fields: ["x": .integer(Int64($0))]) })
        let fields = try aggregate(
            fixture, "c", [Aggregation(.sum(try FieldPath("x")), alias: "s"), Aggregation(.count(upTo: 2), alias: "n")],
            filter: filter("x", .greaterThan, 1), limit: 3)
        #expect(fields["s"] == 9)
        #expect(fields["n"] == 2)
    }
}
