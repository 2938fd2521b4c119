import DocumentModel

/// One aggregation of a query's results: `count()`, `sum(_:)` or `average(_:)`.
public struct AggregateField: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case count
        case sum(FieldInput)
        case average(FieldInput)
    }

    let kind: Kind

    /// The number of results.
    public static func count() -> AggregateField { AggregateField(kind: .count) }
    /// The sum of the numeric values of `field` (others ignored).
    public static func sum(_ field: String) -> AggregateField { AggregateField(kind: .sum(.dotted(field))) }
    /// The sum of the numeric values at `path`.
    public static func sum(_ path: FieldPath) -> AggregateField { AggregateField(kind: .sum(.path(path))) }
    /// The average of the numeric values of `field`, or null if there are none.
    public static func average(_ field: String) -> AggregateField { AggregateField(kind: .average(.dotted(field))) }
    /// The average of the numeric values at `path`.
    public static func average(_ path: FieldPath) -> AggregateField { AggregateField(kind: .average(.path(path))) }

    func aggregation(alias: String) throws -> Aggregation {
        switch kind {
        case .count: Aggregation(.count(upTo: nil), alias: alias)
        case .sum(let field): Aggregation(.sum(try field.modelPath()), alias: alias)
        case .average(let field): Aggregation(.average(try field.modelPath()), alias: alias)
        }
    }
}

/// Aggregations computed over a query's results by the database, without reading the documents
/// into the app.
///
/// ```swift
/// let snapshot = try await db.collection("orders")
///     .aggregate([.count(), .sum("total"), .average("total")])
///     .getAggregation(source: .server)
/// print(snapshot.count, snapshot.get(.sum("total")) ?? 0)
/// ```
public final class AggregateQuery: Sendable {
    /// The query aggregated.
    public let query: Query
    /// The aggregations.
    public let aggregations: [AggregateField]

    init(query: Query, aggregations: [AggregateField]) {
        self.query = query
        self.aggregations = aggregations
    }

    /// Runs the aggregations on the database.
    ///
    /// - Parameter source: only `.server` exists, as in the SDK.
    public func getAggregation(source: AggregateSource) async throws -> AggregateQuerySnapshot {
        // A limit(toLast:) query runs reversed, which selects the same documents.
        let model = try query.state.modelQuery(in: query.firestore.database, namingImpliedOrders: false)
        let aggregations = try self.aggregations.enumerated().map { try $1.aggregation(alias: "aggregate_\($0)") }
        let fields = try await query.firestore.backend.runAggregation(
            AggregationQuery(query: model, aggregations: aggregations), as: query.firestore.identity)
        var values: [AggregateField: Value] = [:]
        for (index, field) in self.aggregations.enumerated() { values[field] = fields["aggregate_\(index)"] ?? .null }
        return AggregateQuerySnapshot(query: self, values: values)
    }
}

/// Where an aggregation runs: always the database.
public enum AggregateSource: Sendable, Hashable {
    /// The database.
    case server
}

/// The results of an `AggregateQuery`.
public struct AggregateQuerySnapshot: Sendable {
    /// The aggregate query run.
    public let query: AggregateQuery
    let values: [AggregateField: Value]

    /// The number of results (of the `count()` aggregation, or of `query.count`).
    public var count: Int {
        if case .integer(let count)? = values[.count()] { return Int(count) }
        return 0
    }

    /// An aggregation's result: `Int` for a count, `Int` or `Double` for a sum, `Double` for
    /// an average, `nil` for an average of no numbers or an aggregation not in the query.
    public func get(_ field: AggregateField) -> Any? {
        switch values[field] {
        case .integer(let value)?: Int(value)
        case .double(let value)?: value
        default: nil
        }
    }
}

extension Query {
    /// A count of the query's results, computed by the database.
    ///
    /// ```swift
    /// let count = try await db.collection("users").count.getAggregation(source: .server).count
    /// ```
    public var count: AggregateQuery { AggregateQuery(query: self, aggregations: [.count()]) }

    /// Aggregations of the query's results, computed by the database.
    public func aggregate(_ fields: [AggregateField]) -> AggregateQuery {
        AggregateQuery(query: self, aggregations: fields)
    }
}
