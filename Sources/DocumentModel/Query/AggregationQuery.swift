/// An aggregation over a query's results, as in Firestore's `RunAggregationQueryRequest`.
public struct AggregationQuery: Sendable, Hashable {
    /// The query whose results are aggregated.
    public var query: Query
    /// The aggregations, each with its alias.
    public var aggregations: [Aggregation]

    public init(query: Query, aggregations: [Aggregation]) {
        self.query = query
        self.aggregations = aggregations
    }
}

/// One aggregation: count, sum or average, under an alias (`nil` lets Firestore name it
/// `field_1`, `field_2`, ... in order).
public struct Aggregation: Sendable, Hashable {
    /// What is computed.
    public enum Kind: Sendable, Hashable {
        /// The number of results, stopping at `upTo` if given.
        case count(upTo: Int64?)
        /// The sum of a numeric field.
        case sum(FieldPath)
        /// The average of a numeric field.
        case average(FieldPath)
    }

    /// What is computed.
    public var kind: Kind
    /// The name of the result.
    public var alias: String?

    public init(_ kind: Kind, alias: String? = nil) {
        self.kind = kind
        self.alias = alias
    }
}
