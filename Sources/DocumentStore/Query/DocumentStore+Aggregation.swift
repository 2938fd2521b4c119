public import DocumentModel
import QueryEngine

/// The answer to an aggregation query.
public struct AggregationResult: Sendable, Hashable {
    /// The time the query read the database at.
    public var readTime: Timestamp
    /// One field per aggregation, named by its alias (`field_1`, `field_2`, ... for those
    /// without one, numbered among them in order).
    public var fields: MapValue
}

extension DocumentStore {
    /// Runs count, sum and average aggregations over a query's results (after its cursors,
    /// offset and limit) at `readTime` (the latest commit if `nil`).
    ///
    /// A count of a query the index answers exactly counts index keys without reading a
    /// document (see `explain(_:readTime:)`).
    ///
    /// ```swift
    /// let result = try store.runAggregation(AggregationQuery(
    ///     query: adults, aggregations: [Aggregation(.count(upTo: nil)), Aggregation(.average(try FieldPath("age")))]))
    /// result.fields["field_1"]  // .integer(...)
    /// ```
    ///
    /// Run as `identity` (the admin by default, which bypasses security rules), the rules'
    /// `list` must allow its query (see `runQuery(_:readTime:as:)`).
    ///
    /// - Throws: `.invalidArgument` for an invalid query or aggregation, with Firestore's message;
    ///   `.permissionDenied` naming the rules evaluated when the rules deny the query.
    public func runAggregation(
        _ query: AggregationQuery, readTime: Timestamp? = nil, as identity: RequestIdentity = .admin
    ) throws -> AggregationResult {
        try authorize(query.query, as: identity)
        return try runAggregation(query, version: try readTime.map { _ in try readVersion(for: readTime) })
    }

    /// Runs an aggregation at `version` (the newest if `nil`; an older one must be within the
    /// retention window).
    func runAggregation(_ query: AggregationQuery, version: Int64?) throws -> AggregationResult {
        let aliases = try AggregationValidator.aliases(of: query.aggregations)
        let prepared = try QueryValidator.prepare(query.query, aggregated: query.aggregatedFields)
        return try withSnapshotReader(
            query.query.database, version: version, reading: query.query.rangeDescription
        ) { reader in
            let planned = try QueryPlanner(query: prepared, reader: reader).plan(countingOnly: isCountOnly(query))
            let executor = QueryExecutor(query: prepared, reader: reader, planned: planned)
            var values: [Value]
            if isCountOnly(query) {
                let limits = query.aggregations.map(\.upTo)
                let total = try executor.count(upTo: limits.contains(nil) ? nil : limits.compactMap { $0 }.max())
                values = limits.map { .integer($0.map { min(total, $0) } ?? total) }
            } else {
                values = try aggregate(query.aggregations, executor)
            }
            var fields = MapValue()
            for (alias, value) in zip(aliases, values) { fields[alias] = value }
            return AggregationResult(readTime: reader.readTime, fields: fields)
        }
    }

    /// The plan `runAggregation` would follow; `countsIndexKeysOnly` tells whether a count
    /// reads index keys only.
    public func explain(_ query: AggregationQuery, readTime: Timestamp? = nil) throws -> QueryPlan {
        _ = try AggregationValidator.aliases(of: query.aggregations)
        let prepared = try QueryValidator.prepare(query.query, aggregated: query.aggregatedFields)
        return try withSnapshotReader(
            query.query.database, readTime: readTime, reading: query.query.rangeDescription
        ) { reader in
            try QueryPlanner(query: prepared, reader: reader).plan(countingOnly: isCountOnly(query)).description
        }
    }

    private func isCountOnly(_ query: AggregationQuery) -> Bool {
        query.aggregations.allSatisfy { if case .count = $0.kind { true } else { false } }
    }

    /// Reads the results once, feeding every aggregation.
    private func aggregate(_ aggregations: [Aggregation], _ executor: QueryExecutor) throws -> [Value] {
        var count: Int64 = 0
        var accumulators = Array(repeating: AggregationAccumulator(), count: aggregations.count)
        try executor.run { document in
            count += 1
            for (index, aggregation) in aggregations.enumerated() {
                switch aggregation.kind {
                case .sum(let field), .average(let field):
                    if let value = document.fields.value(at: field) { accumulators[index].add(value) }
                case .count:
                    break
                }
            }
            return true
        }
        return zip(aggregations, accumulators).map { aggregation, accumulator in
            switch aggregation.kind {
            case .count(let upTo): .integer(upTo.map { min(count, $0) } ?? count)
            case .sum: accumulator.sum
            case .average: accumulator.average
            }
        }
    }
}

extension AggregationQuery {
    /// The fields summed or averaged.
    var aggregatedFields: [FieldPath] {
        aggregations.compactMap { aggregation in
            switch aggregation.kind {
            case .sum(let field), .average(let field): field
            case .count: nil
            }
        }
    }
}

extension Aggregation {
    /// A count's `up_to`, `nil` for other aggregations and unlimited counts.
    var upTo: Int64? {
        if case .count(let upTo) = kind { return upTo }
        return nil
    }
}

/// Firestore's rules for the aggregations of a query, with Google's emulator's messages.
enum AggregationValidator {
    /// The most aggregations in one query (production Firestore's limit).
    static let maxAggregations = 5

    /// The result names, in order, after checking every aggregation.
    static func aliases(of aggregations: [Aggregation]) throws -> [String] {
        guard !aggregations.isEmpty else { throw FirestoreError.invalidArgument("Aggregations can not be empty.") }
        guard aggregations.count <= maxAggregations else {
            throw FirestoreError.invalidArgument(
                "Too many aggregations: a query may have at most \(maxAggregations), it has \(aggregations.count).")
        }
        var unaliased = 0
        var seen = Set<[UInt8]>()
        var aliases: [String] = []
        for aggregation in aggregations {
            switch aggregation.kind {
            case .count(let upTo?) where upTo < 0:
                throw FirestoreError.invalidArgument(
                    "The `up_to` value in a COUNT aggregation must be greater than or equal to zero.")
            case .sum(let field), .average(let field):
                try QueryValidator.validateFieldPath(field)
                if field.isDocumentName {
                    throw FirestoreError.invalidArgument("Aggregations are not supported for the property: __key__")
                }
            default:
                break
            }
            let alias: String
            if let given = aggregation.alias, !given.isEmpty {
                alias = given
                if ResourcePath.isReserved(alias) {
                    throw FirestoreError.invalidArgument("The property.name \"\(alias)\" is reserved.")
                }
            } else {
                unaliased += 1
                alias = "field_\(unaliased)"
            }
            aliases.append(alias)
        }
        // Names compare by their UTF-8 bytes, as map keys do.
        for alias in aliases where !seen.insert(Array(alias.utf8)).inserted {
            throw FirestoreError.invalidArgument("Aggregation aliases contain duplicate alias: \(alias).")
        }
        return aliases
    }
}
