package import DocumentModel
package import FirestoreProto
import SwiftProtobuf

// Queries as the proto messages a client sends; the server reads them back with
// `StructuredQuery(proto:)` (Query+ProtoDecoding.swift).

extension DocumentModel.Query {
    /// The `parent` of a `RunQueryRequest` or `QueryTarget`: the database's `.../documents`, or
    /// a document under it.
    package var protoParent: String {
        parent.segments.isEmpty ? "\(database.resourceName)/documents" : "\(database.resourceName)/documents/\(parent)"
    }
}

extension StructuredQuery {
    /// The query as a `google.firestore.v1.StructuredQuery` message.
    package var proto: Google_Firestore_V1_StructuredQuery {
        var message = Google_Firestore_V1_StructuredQuery()
        if let select {
            message.select.fields = select.map(\.protoReference)
        }
        var selector = Google_Firestore_V1_StructuredQuery.CollectionSelector()
        selector.collectionID = from.collectionID
        selector.allDescendants = from.allDescendants
        message.from = [selector]
        if let filter { message.where = filter.proto }
        message.orderBy = orderBy.map { order in
            var proto = Google_Firestore_V1_StructuredQuery.Order()
            proto.field = order.field.protoReference
            proto.direction = order.direction == .ascending ? .ascending : .descending
            return proto
        }
        if let startAt { message.startAt = startAt.proto }
        if let endAt { message.endAt = endAt.proto }
        message.offset = Int32(clamping: offset)
        if let limit { message.limit = Google_Protobuf_Int32Value(Int32(clamping: limit)) }
        if let findNearest { message.findNearest = findNearest.proto }
        return message
    }
}

extension FindNearest {
    /// The vector search as a `StructuredQuery.FindNearest` message.
    package var proto: Google_Firestore_V1_StructuredQuery.FindNearest {
        var message = Google_Firestore_V1_StructuredQuery.FindNearest()
        message.vectorField = vectorField.protoReference
        message.queryVector = queryVector.proto
        message.distanceMeasure =
            switch distanceMeasure {
            case .euclidean: .euclidean
            case .cosine: .cosine
            case .dotProduct: .dotProduct
            case .unknown(let number): .init(rawValue: number) ?? .unspecified
            }
        if let limit { message.limit = Google_Protobuf_Int32Value(Int32(clamping: limit)) }
        if let distanceResultField { message.distanceResultField = distanceResultField }
        if let distanceThreshold { message.distanceThreshold = Google_Protobuf_DoubleValue(distanceThreshold) }
        return message
    }
}

extension QueryCursor {
    /// The cursor as a `google.firestore.v1.Cursor` message.
    package var proto: Google_Firestore_V1_Cursor {
        var message = Google_Firestore_V1_Cursor()
        message.values = values.map(\.proto)
        message.before = before
        return message
    }
}

extension QueryFilter {
    /// The filter as a `StructuredQuery.Filter` message.
    package var proto: Google_Firestore_V1_StructuredQuery.Filter {
        var message = Google_Firestore_V1_StructuredQuery.Filter()
        switch self {
        case .field(let path, let op, let value):
            var filter = Google_Firestore_V1_StructuredQuery.FieldFilter()
            filter.field = path.protoReference
            filter.op = op.proto
            filter.value = value.proto
            message.fieldFilter = filter
        case .unary(let path, let op):
            var filter = Google_Firestore_V1_StructuredQuery.UnaryFilter()
            filter.field = path.protoReference
            filter.op = switch op {
            case .isNaN: .isNan
            case .isNull: .isNull
            case .isNotNaN: .isNotNan
            case .isNotNull: .isNotNull
            }
            message.unaryFilter = filter
        case .composite(let op, let filters):
            var filter = Google_Firestore_V1_StructuredQuery.CompositeFilter()
            filter.op = op == .and ? .and : .or
            filter.filters = filters.map(\.proto)
            message.compositeFilter = filter
        }
        return message
    }
}

extension QueryFilter.FieldOperator {
    var proto: Google_Firestore_V1_StructuredQuery.FieldFilter.Operator {
        switch self {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqual
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqual
        case .equal: .equal
        case .notEqual: .notEqual
        case .arrayContains: .arrayContains
        case .in: .in
        case .arrayContainsAny: .arrayContainsAny
        case .notIn: .notIn
        }
    }
}

extension AggregationQuery {
    /// The aggregations as a `google.firestore.v1.StructuredAggregationQuery` message (its
    /// query's parent goes in the request).
    package var proto: Google_Firestore_V1_StructuredAggregationQuery {
        var message = Google_Firestore_V1_StructuredAggregationQuery()
        message.structuredQuery = query.structured.proto
        message.aggregations = aggregations.map { aggregation in
            var proto = Google_Firestore_V1_StructuredAggregationQuery.Aggregation()
            if let alias = aggregation.alias { proto.alias = alias }
            switch aggregation.kind {
            case .count(let upTo):
                var count = Google_Firestore_V1_StructuredAggregationQuery.Aggregation.Count()
                if let upTo { count.upTo = Google_Protobuf_Int64Value(upTo) }
                proto.count = count
            case .sum(let path):
                var sum = Google_Firestore_V1_StructuredAggregationQuery.Aggregation.Sum()
                sum.field = path.protoReference
                proto.sum = sum
            case .average(let path):
                var average = Google_Firestore_V1_StructuredAggregationQuery.Aggregation.Avg()
                average.field = path.protoReference
                proto.avg = average
            }
            return proto
        }
        return message
    }
}

extension DocumentModel.FieldPath {
    /// The path as a `FieldReference` (its dotted, back-quoted text).
    package var protoReference: Google_Firestore_V1_StructuredQuery.FieldReference {
        var reference = Google_Firestore_V1_StructuredQuery.FieldReference()
        reference.fieldPath = description
        return reference
    }
}
