import DocumentModel
import DocumentStore
import Testing

/// Vector values in the store: validation with Google's emulator's messages, storage, order,
/// filters, and vector search (`findNearest`), as measured against Google's emulator.
@Suite("Vectors")
struct VectorTests {
    /// Commits `fields` at `v/bad` expecting `.invalidArgument` with exactly `message`, and
    /// nothing written.
    private func expectRefused(
        _ fixture: StoreFixture, _ fields: MapValue, _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let name = try fixture.name("v/bad")
        let error = #expect(throws: FirestoreError.self, sourceLocation: sourceLocation) {
            try fixture.store.commit([.set(name, fields: fields)])
        }
        #expect(error?.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
        #expect(try fixture.store.document(name) == nil, sourceLocation: sourceLocation)
    }

    private func typed(_ fields: KeyValuePairs<String, Value>) -> Value {
        .map(MapValue(uniqueKeysWithValues: fields.map { ($0.key, $0.value) }))
    }

    @Test("malformed vectors are refused with Google's emulator's messages")
    func validation() throws {
        let fixture = try StoreFixture()
        let vector = "__vector__"
        let cases: [(Value, String)] = [
            (.vector([]), "Cannot have a zero length vector."),
            (
                typed(["__type__": .string(vector), "value": [1, 2]]),
                "Vector must only contain values of type 'double'"
            ),
            (typed(["__type__": .string(vector), "value": ["x"]]), "Vector must only contain values of type 'double'"),
            (
                typed(["__type__": .string(vector), "value": [.double(1)], "x": 1]),
                "Vector Value map has extraneous entries."
            ),
            (typed(["__type__": .string(vector), "value": [], "x": 1]), "Vector Value map has extraneous entries."),
            (typed(["__type__": .string(vector)]), "Vector map is missing key 'value'."),
            (typed(["__type__": .string(vector), "x": 1]), "Vector map is missing key 'value'."),
            (typed(["__type__": .string(vector), "value": .double(1)]), "Vector Value type must be an array."),
            (typed(["__type__": .string(vector), "value": .null]), "Vector Value type must be an array."),
            (typed(["__type__": "__foo__", "value": [.double(1)]]), "Property e contains an invalid nested entity."),
            (typed(["__type__": 5, "value": [.double(1)]]), "Field __type__ is not a string."),
            (.vector([.nan, 1]), "Vector cannot contain NaN values."),
            (.vector(Array(repeating: 1, count: 2049)), "Vectors must be at most 2048 dimensions."),
            (
                typed(["__type__": .string(vector), "value": .array(Array(repeating: 1, count: 2049))]),
                "Vectors must be at most 2048 dimensions."
            ),
            ([.vector([1])], "Cannot convert a vector value in an array value."),
        ]
        for (value, message) in cases { try expectRefused(fixture, ["e": value], message) }
        try expectRefused(
            fixture, ["__type__": .string(vector), "value": [.double(1)]], "field name __type__ is reserved")
    }

    @Test("vectors are stored and read back; they are leaves, allowed at any depth and in array transforms")
    func storage() throws {
        let fixture = try StoreFixture()
        var deep: Value = .vector([1])
        for _ in 0..<20 { deep = ["m": deep] }
        let fields: MapValue = [
            "a": .vector([1, -0.0, .infinity]), "b": .vector(Array(repeating: 0.5, count: 2048)), "deep": deep,
            "list": [["in": .vector([2])]],
        ]
        let name = try fixture.name("v/ok")
        try fixture.store.commit([.set(name, fields: fields)])
        let stored = try #require(try fixture.store.document(name))
        #expect(Value.map(stored.fields).isIdentical(to: .map(fields)))
        try fixture.store.commit([
            .update(
                name, fields: [:], mask: [],
                transforms: [
                    FieldTransform(try FieldPath("list"), .appendMissingElements([.vector([3])]))
                ])
        ])
        #expect(try fixture.store.document(name)?.fields["list"] == [["in": .vector([2])], .vector([3])])
        // Writing below a vector replaces it with a map, as for any non-map value.
        try fixture.store.commit([
            .update(name, fields: ["a": ["value": [.double(3)]]], mask: [try FieldPath("a.value")])
        ])
        #expect(try fixture.store.document(name)?.fields["a"] == ["value": [.double(3)]])
    }

    @Test("order-by and filters: arrays < vectors < maps; vectors by length, then elements")
    func orderAndFilters() throws {
        let fixture = try StoreFixture()
        try fixture.put([
            "c/arr": ["e": [9, 9, 9]], "c/v1a": ["e": .vector([5])], "c/v1b": ["e": .vector([-1])],
            "c/v2a": ["e": .vector([1, 2])], "c/v2b": ["e": .vector([0, 100])], "c/vneg0": ["e": .vector([-0.0, 2])],
            "c/v3": ["e": .vector([1, 2, 3])], "c/map": ["e": ["value": [.double(1)]]], "c/num": ["e": 3],
        ])
        #expect(
            try fixture.ids(fixture.query("c", orderBy: [Order(.path("e"))])) == [
                "num", "arr", "v1b", "v1a", "vneg0", "v2b", "v2a", "v3", "map",
            ])
        #expect(
            try fixture.ids(fixture.query("c", orderBy: [Order(.path("e"), .descending)])) == [
                "map", "v3", "v2a", "v2b", "vneg0", "v1a", "v1b", "arr", "num",
            ])
        let ids = { (field: String, op: QueryFilter.FieldOperator, value: Value) in
            try fixture.ids(fixture.query("c", filter: filter(field, op, value)))
        }
        #expect(try ids("e", .greaterThan, .vector([1])) == ["v1a", "vneg0", "v2b", "v2a", "v3"])
        #expect(try ids("e", .lessThan, .vector([1, 2])) == ["v1b", "v1a", "vneg0", "v2b"])
        #expect(try ids("e", .greaterThan, []) == ["arr"])
        #expect(try ids("e", .lessThan, [:]) == [])
        #expect(try ids("e", .equal, .vector([1, 2])) == ["v2a"])
        #expect(try ids("e", .equal, .vector([0, 2])) == [], "-0.0 and 0.0 differ in vectors")
        #expect(try ids("e", .in, [.vector([5]), .vector([1, 2])]) == ["v1a", "v2a"])
        #expect(try ids("e.value", .equal, [.double(1), .double(2)]) == [], "a vector's fields are not addressable")
        #expect(try fixture.ids(fixture.query("c", orderBy: [Order(.path("e.value"))])) == ["map"])
        let count = try fixture.store.runAggregation(
            AggregationQuery(
                query: fixture.query("c", filter: filter("e.value", .equal, [.double(1), .double(2)])),
                aggregations: [Aggregation(.count(upTo: nil))]))
        #expect(count.fields["field_1"] == 0)
    }

    @Test("malformed vector operands in queries are refused; other typed maps are plain maps there")
    func queryOperands() throws {
        let fixture = try StoreFixture()
        let bad: [(Value, String)] = [
            (["__type__": "__vector__", "value": [1]], "Vector must only contain values of type 'double'"),
            (.vector([]), "Cannot have a zero length vector."),
            (["__type__": "__vector__", "value": [.double(1)], "x": 1], "Vector Value map has extraneous entries."),
        ]
        for (value, message) in bad {
            #expect(fixture.error(try fixture.query("c", filter: filter("e", .equal, value)))?.message == message)
            #expect(fixture.error(try fixture.query("c", filter: filter("e", .in, [value])))?.message == message)
        }
        #expect(fixture.error(try fixture.query("c", filter: filter("e", .greaterThan, .vector([.nan])))) == nil)
        #expect(fixture.error(try fixture.query("c", filter: filter("e", .equal, ["__type__": "x"]))) == nil)
    }
}
