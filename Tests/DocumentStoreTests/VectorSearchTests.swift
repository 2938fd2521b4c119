import DocumentModel
import DocumentStore
import Testing

/// `findNearest`, with the results and distances Google's emulator gives for the same data.
@Suite("Vector search")
struct VectorSearchTests {
    private func fixture() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.put([
            "c/a": ["e": .vector([1, 0]), "k": 1], "c/b": ["e": .vector([0, 1]), "k": 2],
            "c/c": ["e": .vector([1, 1]), "k": 3, "dist": "old"], "c/d": ["e": .vector([2, 2]), "k": 4],
            "c/e0": ["e": .vector([0, 0]), "k": 5], "c/f": ["e": .vector([1, 2, 3]), "k": 6],
            "c/g": ["e": [.double(1), .double(1)], "k": 7], "c/h": ["k": 8], "c/i": ["e": .vector([-1, 0]), "k": 9],
            "c/j": ["e": .vector([0, 1]), "k": 10], "c/n": ["e": .vector([0, 1])],
        ])
        return fixture
    }

    private func search(
        _ fixture: StoreFixture, _ measure: FindNearest.DistanceMeasure, limit: Int? = 20,
        vector: Value = .vector([1, 1]),
        threshold: Double? = nil, resultField: String? = "dist", filter: QueryFilter? = nil, orderBy: [Order] = [],
        select: [FieldPath]? = nil, offset: Int = 0, queryLimit: Int? = nil
    ) throws -> Query {
        var query = try fixture.query(
            "c", filter: filter, orderBy: orderBy, offset: offset, limit: queryLimit, select: select)
        query.structured.findNearest = FindNearest(
            vectorField: try FieldPath("e"), queryVector: vector, distanceMeasure: measure, limit: limit,
            distanceResultField: resultField, distanceThreshold: threshold)
        return query
    }

    /// `(id, distance)` of each result.
    private func results(_ fixture: StoreFixture, _ query: Query) throws -> [String] {
        try fixture.store.runQuery(query).documents.map { document in
            let distance = document.fields["dist"].map { value -> String in
                if case .double(let number) = value { return "\(number)" }
                return "-"
            }
            return "\(document.name.documentID) \(distance ?? "-")"
        }
    }

    @Test("each measure: nearest first, ties in name order, NaN last (first for dot product)")
    func measures() throws {
        let fixture = try fixture()
        #expect(
            try results(fixture, search(fixture, .euclidean)) == [
                "c 0.0", "a 1.0", "b 1.0", "j 1.0", "n 1.0", "d 1.4142135623730951", "e0 1.4142135623730951",
                "i 2.23606797749979",
            ])
        #expect(
            try results(fixture, search(fixture, .cosine)) == [
                "c 0.0", "d 0.0", "a 0.29289321881345254", "b 0.29289321881345254", "j 0.29289321881345254",
                "n 0.29289321881345254", "i 1.7071067811865475", "e0 nan",
            ])
        #expect(
            try results(fixture, search(fixture, .dotProduct)) == [
                "d 4.0", "c 2.0", "a 1.0", "b 1.0", "j 1.0", "n 1.0", "e0 0.0", "i -1.0",
            ])
        let infinite = try StoreFixture()
        try infinite.put([
            "c/inf": ["e": .vector([.infinity, 0])], "c/y": ["e": .vector([-1, 1])], "c/z": ["e": .vector([0, 1])],
        ])
        #expect(
            try results(infinite, search(infinite, .dotProduct, vector: .vector([0, 1]))) == [
                "inf nan", "y 1.0", "z 1.0",
            ])
        #expect(
            try results(infinite, search(infinite, .euclidean, vector: .vector([0, 1]))) == [
                "z 0.0", "y 1.0", "inf inf",
            ])
    }

    @Test("threshold, limit, filters, order-by as the tie-break, projection, aggregation")
    func options() throws {
        let fixture = try fixture()
        #expect(
            try results(fixture, search(fixture, .euclidean, threshold: 1)) == [
                "c 0.0", "a 1.0", "b 1.0", "j 1.0", "n 1.0",
            ])
        #expect(try results(fixture, search(fixture, .cosine, threshold: 1)).count == 6, "NaN never passes")
        #expect(
            try results(fixture, search(fixture, .dotProduct, threshold: 1)) == [
                "d 4.0", "c 2.0", "a 1.0", "b 1.0", "j 1.0", "n 1.0",
            ])
        #expect(try results(fixture, search(fixture, .euclidean, threshold: -1)) == [])
        #expect(try results(fixture, search(fixture, .euclidean, limit: 2)) == ["c 0.0", "a 1.0"])
        #expect(
            try results(fixture, search(fixture, .euclidean, filter: filter("k", .greaterThan, 2))) == [
                "c 0.0", "j 1.0", "d 1.4142135623730951", "e0 1.4142135623730951", "i 2.23606797749979",
            ])
        #expect(
            try results(fixture, search(fixture, .euclidean, limit: 4, orderBy: [Order(.path("k"), .descending)])) == [
                "c 0.0", "j 1.0", "b 1.0", "a 1.0",
            ])
        let projected = try fixture.store.runQuery(search(fixture, .euclidean, limit: 1, select: [.path("k")]))
        #expect(projected.documents.map(\.fields) == [["k": 3]])
        let replaced = try fixture.store.runQuery(search(fixture, .euclidean, limit: 1, resultField: "e"))
        #expect(replaced.documents.first?.fields["e"] == 0.0)
        let noField = try fixture.store.runQuery(search(fixture, .euclidean, limit: 1, resultField: nil))
        #expect(noField.documents.first?.fields["dist"] == "old")
        let count = try fixture.store.runAggregation(
            AggregationQuery(
                query: search(fixture, .euclidean, limit: 3), aggregations: [Aggregation(.count(upTo: nil))]))
        #expect(count.fields["field_1"] == 3)
    }

    @Test("invalid searches are refused with Google's emulator's messages")
    func validation() throws {
        let fixture = try fixture()
        let cases: [(Query, String)] = [
            (
                try search(fixture, .euclidean, limit: 0),
                "FindNearest.limit must be a positive integer of no more than 1000"
            ),
            (
                try search(fixture, .euclidean, limit: 1001),
                "FindNearest.limit must be a positive integer of no more than 1000"
            ),
            (
                try search(fixture, .euclidean, limit: nil),
                "FindNearest.limit must be a positive integer of no more than 1000"
            ),
            (try search(fixture, .unknown(0)), "Unknown Distance Measure."),
            (try search(fixture, .euclidean, vector: [.double(1)]), "Query Value must be of type vector."),
            (try search(fixture, .euclidean, vector: "x"), "Query Value must be of type vector."),
            (try search(fixture, .euclidean, vector: .vector([])), "Cannot have a zero length vector."),
            (
                try search(fixture, .euclidean, vector: .vector(Array(repeating: 1, count: 2049))),
                "Vectors must be at most 2048 dimensions."
            ),
            (
                try search(fixture, .euclidean, vector: ["__type__": "__vector__", "value": [1]]),
                "Vector must only contain values of type 'double'"
            ),
            (try search(fixture, .euclidean, threshold: .infinity), "distanceThreshold must be a finite number."),
            (try search(fixture, .euclidean, threshold: .nan), "distanceThreshold must be a finite number."),
            (
                try search(fixture, .euclidean, resultField: "__name__"),
                "The distanceResultField.property.name \"__name__\" is reserved."
            ),
            (try search(fixture, .euclidean, queryLimit: 2), "A query limit cannot be used with FindNearest"),
            (try search(fixture, .euclidean, offset: 1), "A query offset cannot be used with FindNearest"),
        ]
        for (query, message) in cases {
            let error = fixture.error(query)
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == message)
        }
        var cursor = try search(fixture, .euclidean, orderBy: [Order(.path("k"))])
        cursor.structured.startAt = QueryCursor(values: [2], before: true)
        #expect(fixture.error(cursor)?.message == "A cursor cannot be used with FindNearest")
    }
}
