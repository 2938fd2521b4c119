package import DocumentModel
package import FirestoreProto
import SwiftProtobuf

// Queries from the proto messages the server receives. gRPC requests arrive as these messages
// and REST bodies are parsed into them by swift-protobuf's JSON mapping, so both APIs accept
// and reject exactly the same queries with the same messages. Errors are `.invalidArgument`
// and name the offending member by its path in the query (`where.compositeFilter.filters[0]`).

extension StructuredQuery {
    /// Decodes a `google.firestore.v1.StructuredQuery` message.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for a query without exactly one collection
    ///   selector, an empty filter, an unknown operator, a member missing its field, an invalid
    ///   field path or value.
    package init(proto: Google_Firestore_V1_StructuredQuery) throws {
        guard proto.from.count == 1, let selector = proto.from.first else {
            throw FirestoreError.invalidArgument("A query must have exactly one collection selector in 'from'")
        }
        let orderBy = try proto.orderBy.enumerated().map { index, order in
            guard order.hasField else { throw FirestoreError.invalidArgument("orderBy[\(index)] has no field") }
            let direction: Order.Direction =
                switch order.direction {
                case .unspecified, .ascending: .ascending
                case .descending: .descending
                case .UNRECOGNIZED(let number):
                    throw FirestoreError.invalidArgument("orderBy[\(index)].direction \(number) is invalid")
                }
            return Order(try FieldPath(order.field.fieldPath), direction)
        }
        self.init(
            select: proto.hasSelect ? try proto.select.fields.map { try FieldPath($0.fieldPath) } : nil,
            from: CollectionSelector(collectionID: selector.collectionID, allDescendants: selector.allDescendants),
            filter: proto.hasWhere ? try QueryFilter(proto: proto.where, at: "where") : nil,
            orderBy: orderBy,
            startAt: proto.hasStartAt ? try QueryCursor(proto: proto.startAt) : nil,
            endAt: proto.hasEndAt ? try QueryCursor(proto: proto.endAt) : nil,
            offset: Int(proto.offset),
            limit: proto.hasLimit ? Int(proto.limit.value) : nil,
            findNearest: proto.hasFindNearest ? try FindNearest(proto: proto.findNearest) : nil)
    }
}

extension QueryFilter {
    /// Decodes a `StructuredQuery.Filter` message (a field, unary or composite filter) found at
    /// `path` in the query.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming `path` for an empty filter, a missing
    ///   field or value and an unknown operator.
    package init(proto: Google_Firestore_V1_StructuredQuery.Filter, at path: String) throws {
        switch proto.filterType {
        case nil:
            throw FirestoreError.invalidArgument("\(path) is an empty filter")
        case .fieldFilter(let filter):
            guard filter.hasField, filter.hasValue else {
                throw FirestoreError.invalidArgument("\(path).fieldFilter needs a field and a value")
            }
            guard let op = FieldOperator(proto: filter.op) else {
                throw FirestoreError.invalidArgument(
                    "\(path).fieldFilter.op \(filter.op.rawValue) is not a field filter operator")
            }
            self = .field(
                try FieldPath(filter.field.fieldPath), op, try Value(proto: filter.value))
        case .unaryFilter(let filter):
            guard case .field(let field)? = filter.operandType else {
                throw FirestoreError.invalidArgument("\(path).unaryFilter needs a field")
            }
            guard let op = UnaryOperator(proto: filter.op) else {
                throw FirestoreError.invalidArgument(
                    "\(path).unaryFilter.op \(filter.op.rawValue) is not a unary filter operator")
            }
            self = .unary(try FieldPath(field.fieldPath), op)
        case .compositeFilter(let filter):
            let op: CompositeOperator
            switch filter.op {
            case .and: op = .and
            case .or: op = .or
            case .unspecified, .UNRECOGNIZED:
                throw FirestoreError.invalidArgument("\(path).compositeFilter.op \(filter.op.rawValue) is not AND or OR")
            }
            self = .composite(
                op,
                try filter.filters.enumerated().map {
                    try QueryFilter(proto: $1, at: "\(path).compositeFilter.filters[\($0)]")
                })
        }
    }
}

extension QueryCursor {
    /// Decodes a `google.firestore.v1.Cursor` message.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for an invalid value.
    package init(proto: Google_Firestore_V1_Cursor) throws {
        self.init(values: try proto.values.map(Value.init(proto:)), before: proto.before)
    }
}

extension FindNearest {
    /// Decodes a `StructuredQuery.FindNearest` message. A distance measure this version does not
    /// know is kept as `.unknown` for the engine to refuse.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for a missing or invalid vector field or query
    ///   vector.
    package init(proto: Google_Firestore_V1_StructuredQuery.FindNearest) throws {
        guard proto.hasVectorField else { throw FirestoreError.invalidArgument("Invalid empty property path string.") }
        let vectorField = try FieldPath(proto.vectorField.fieldPath)
        guard proto.hasQueryVector else {
            throw FirestoreError.invalidArgument("Cannot convert firestore.v1.Value with type unset.")
        }
        let distanceMeasure: DistanceMeasure =
            switch proto.distanceMeasure {
            case .euclidean: .euclidean
            case .cosine: .cosine
            case .dotProduct: .dotProduct
            case .unspecified: .unknown(0)
            case .UNRECOGNIZED(let number): .unknown(number)
            }
        self.init(
            vectorField: vectorField, queryVector: try Value(proto: proto.queryVector), distanceMeasure: distanceMeasure,
            limit: proto.hasLimit ? Int(proto.limit.value) : nil,
            distanceResultField: proto.distanceResultField.isEmpty ? nil : proto.distanceResultField,
            distanceThreshold: proto.hasDistanceThreshold ? proto.distanceThreshold.value : nil)
    }
}

extension AggregationQuery {
    /// Decodes a `google.firestore.v1.StructuredAggregationQuery` message for a query of
    /// `database` under `parent`. An empty alias is no alias.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for a missing or invalid query, an aggregation
    ///   with no operator, a sum or average with no field.
    package init(
        proto: Google_Firestore_V1_StructuredAggregationQuery, database: DatabaseID, parent: ResourcePath
    ) throws {
        guard case .structuredQuery(let structured)? = proto.queryType else {
            throw FirestoreError.invalidArgument("structuredAggregationQuery needs a structuredQuery")
        }
        let query = Query(database: database, parent: parent, structured: try StructuredQuery(proto: structured))
        let aggregations = try proto.aggregations.enumerated().map { index, aggregation in
            let path = "aggregations[\(index)]"
            let alias = aggregation.alias.isEmpty ? nil : aggregation.alias
            switch aggregation.operator {
            case nil:
                throw FirestoreError.invalidArgument("\(path) has no count, sum or avg")
            case .count(let count):
                return Aggregation(.count(upTo: count.hasUpTo ? count.upTo.value : nil), alias: alias)
            case .sum(let sum):
                guard sum.hasField else { throw FirestoreError.invalidArgument("\(path).sum needs a field") }
                return Aggregation(.sum(try FieldPath(sum.field.fieldPath)), alias: alias)
            case .avg(let average):
                guard average.hasField else { throw FirestoreError.invalidArgument("\(path).avg needs a field") }
                return Aggregation(
                    .average(try FieldPath(average.field.fieldPath)), alias: alias)
            }
        }
        self.init(query: query, aggregations: aggregations)
    }
}

extension QueryFilter.FieldOperator {
    /// The operator of a field filter message; nil for an unspecified or unknown one.
    fileprivate init?(proto: Google_Firestore_V1_StructuredQuery.FieldFilter.Operator) {
        switch proto {
        case .lessThan: self = .lessThan
        case .lessThanOrEqual: self = .lessThanOrEqual
        case .greaterThan: self = .greaterThan
        case .greaterThanOrEqual: self = .greaterThanOrEqual
        case .equal: self = .equal
        case .notEqual: self = .notEqual
        case .arrayContains: self = .arrayContains
        case .in: self = .in
        case .arrayContainsAny: self = .arrayContainsAny
        case .notIn: self = .notIn
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }
}

extension QueryFilter.UnaryOperator {
    /// The operator of a unary filter message; nil for an unspecified or unknown one.
    fileprivate init?(proto: Google_Firestore_V1_StructuredQuery.UnaryFilter.Operator) {
        switch proto {
        case .isNan: self = .isNaN
        case .isNull: self = .isNull
        case .isNotNan: self = .isNotNaN
        case .isNotNull: self = .isNotNull
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }
}
