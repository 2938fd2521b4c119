import DocumentModel
import FirestoreProto
import FirestoreWire
import Testing

@Suite struct QueryProtoDecodingTests {
    private let database = try! DatabaseID(project: "p", database: "(default)")

    /// A query using every part of `StructuredQuery`.
    private func fullQuery() throws -> StructuredQuery {
        StructuredQuery(
            select: [try FieldPath("a"), try FieldPath("b.`c d`")],
            from: CollectionSelector(collectionID: "items", allDescendants: true),
            filter: .composite(
                .or,
                [
                    .field(try FieldPath("n"), .greaterThanOrEqual, .integer(3)),
                    .unary(try FieldPath("x"), .isNotNaN),
                    .composite(.and, [.field(try FieldPath("t"), .in, .array([.string("a"), .null]))]),
                ]),
            orderBy: [Order(try FieldPath("n"), .descending), Order(try FieldPath("__name__"))],
            startAt: QueryCursor(values: [.integer(1)], before: true),
            endAt: QueryCursor(values: [.integer(9)], before: false),
            offset: 2, limit: 10)
    }

    @Test func everyPartRoundTripsThroughItsMessage() throws {
        let query = try fullQuery()
        #expect(try StructuredQuery(proto: query.proto) == query)
        var nearest = StructuredQuery(from: CollectionSelector(collectionID: "items"))
        nearest.findNearest = FindNearest(
            vectorField: try FieldPath("embedding"), queryVector: .vector([0.5, 1]), distanceMeasure: .dotProduct,
            limit: 5, distanceResultField: "d", distanceThreshold: 0.25)
        #expect(try StructuredQuery(proto: nearest.proto) == nearest)
        let aggregation = AggregationQuery(
            query: Query(database: database, parent: .root, structured: query),
            aggregations: [
                Aggregation(.count(upTo: 7), alias: "c"), Aggregation(.sum(try FieldPath("n"))),
                Aggregation(.average(try FieldPath("m")), alias: "avg"),
            ])
        #expect(try AggregationQuery(proto: aggregation.proto, database: database, parent: .root) == aggregation)
    }

    @Test func refusesMalformedQueriesNamingThePart() throws {
        var message = try fullQuery().proto
        message.from = []
        expectFirestoreError(.invalidArgument, mentioning: "exactly one collection selector in 'from'") {
            _ = try StructuredQuery(proto: message)
        }
        message = try fullQuery().proto
        message.where.compositeFilter.filters[2].compositeFilter.filters[0] = .init()
        expectFirestoreError(.invalidArgument, mentioning: "where.compositeFilter.filters[2].compositeFilter.filters[0] is an empty filter") {
            _ = try StructuredQuery(proto: message)
        }
        message = try fullQuery().proto
        message.where.compositeFilter.filters[0].fieldFilter.op = .unspecified
        expectFirestoreError(.invalidArgument, mentioning: "where.compositeFilter.filters[0].fieldFilter.op 0 is not a field filter operator") {
            _ = try StructuredQuery(proto: message)
        }
        message = try fullQuery().proto
        message.where.compositeFilter.filters[0].fieldFilter.clearValue()
        expectFirestoreError(.invalidArgument, mentioning: "fieldFilter needs a field and a value") {
            _ = try StructuredQuery(proto: message)
        }
        message = try fullQuery().proto
        message.where.compositeFilter.filters[1].unaryFilter.op = .UNRECOGNIZED(99)
        expectFirestoreError(.invalidArgument, mentioning: "unaryFilter.op 99 is not a unary filter operator") {
            _ = try StructuredQuery(proto: message)
        }
        message = try fullQuery().proto
        message.where.compositeFilter.op = .unspecified
        expectFirestoreError(.invalidArgument, mentioning: "where.compositeFilter.op 0 is not AND or OR") {
            _ = try StructuredQuery(proto: message)
        }
        message = try fullQuery().proto
        message.orderBy[1].clearField()
        expectFirestoreError(.invalidArgument, mentioning: "orderBy[1] has no field") {
            _ = try StructuredQuery(proto: message)
        }
        message = try fullQuery().proto
        message.orderBy[0].field.fieldPath = ""
        expectFirestoreError(.invalidArgument, mentioning: "A field path must not be empty") {
            _ = try StructuredQuery(proto: message)
        }
        message = try fullQuery().proto
        message.startAt.values.append(.init())
        expectFirestoreError(.invalidArgument, mentioning: "Cannot convert firestore.v1.Value with type unset.") {
            _ = try StructuredQuery(proto: message)
        }
    }

    @Test func refusesMalformedVectorSearchesAndAggregations() throws {
        var message = StructuredQuery(from: CollectionSelector(collectionID: "items")).proto
        message.findNearest = .init()
        expectFirestoreError(.invalidArgument, mentioning: "Invalid empty property path string.") {
            _ = try StructuredQuery(proto: message)
        }
        message.findNearest.vectorField.fieldPath = "v"
        expectFirestoreError(.invalidArgument, mentioning: "Cannot convert firestore.v1.Value with type unset.") {
            _ = try StructuredQuery(proto: message)
        }
        var aggregation = Google_Firestore_V1_StructuredAggregationQuery()
        expectFirestoreError(.invalidArgument, mentioning: "structuredAggregationQuery needs a structuredQuery") {
            _ = try AggregationQuery(proto: aggregation, database: database, parent: .root)
        }
        aggregation.structuredQuery = StructuredQuery(from: CollectionSelector(collectionID: "items")).proto
        aggregation.aggregations = [.init()]
        expectFirestoreError(.invalidArgument, mentioning: "aggregations[0] has no count, sum or avg") {
            _ = try AggregationQuery(proto: aggregation, database: database, parent: .root)
        }
        aggregation.aggregations[0].sum = .init()
        expectFirestoreError(.invalidArgument, mentioning: "aggregations[0].sum needs a field") {
            _ = try AggregationQuery(proto: aggregation, database: database, parent: .root)
        }
    }

    @Test func restJSONQueriesGoThroughTheSameDecoder() throws {
        let query = try RESTJSON.decodeQuery(
            JSONValue(
                parsing: #"{"from": [{"collectionId": "items"}], "where": {"fieldFilter": {"field": {"fieldPath": "n"}, "#
                    + #""op": "EQUAL", "value": {"integerValue": "1"}}}, "limit": 3}"#))
        #expect(query.filter == .field(try FieldPath("n"), .equal, .integer(1)))
        #expect(query.limit == 3)
        expectFirestoreError(.invalidArgument, mentioning: "Invalid JSON payload received") {
            _ = try RESTJSON.decodeQuery(JSONValue(parsing: #"{"from": [], "order": []}"#))
        }
        expectFirestoreError(.invalidArgument, mentioning: "is an empty filter") {
            _ = try RESTJSON.decodeQuery(JSONValue(parsing: #"{"from": [{"collectionId": "items"}], "where": {}}"#))
        }
    }
}
