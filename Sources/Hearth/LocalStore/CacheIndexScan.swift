package import DocumentModel
package import QueryEngine

/// A read of the cache's field index (`CacheIndex`) that lists a superset of a query's results
/// among the cached documents: the documents whose entries of one field and kind lie in
/// `ranges`, in index order (value, then name).
///
/// `init?(_:)` plans it from a query, and answers `nil` when the index cannot narrow the query
/// (the caller scans the collection instead):
/// - the **driving field** is a filter of the query's only conjunction (no `OR`) that is not on
///   `__name__`, and not a negation (`!=`, `not-in`, `IS_NOT_NULL`, `IS_NOT_NAN`, which keep
///   nearly everything) unless it can stop early; a document passing the filter has its field's
///   value (or an array element, for `array-contains`) in the filter's ranges, so it has an entry
///   there. Or, with a limit, the query's first order: a document without the field is no result;
/// - `limit` (stop after that many accepted documents) is set when the scan's order is the
///   query's: an order on the driving field (or none, when a filter holds it to one value) then
///   `__name__`, both ascending (an index scan) or both descending (`reverse`, as
///   `limit(toLast:)` asks), after dropping orders on fields held to one value; and the query
///   has a limit and no cursors;
/// - equality-like filters (one or more values) drive before ranges, and among those a scan
///   that can stop early before one that cannot;
/// - kindless queries (every collection) and vector searches are not planned.
package struct CacheIndexScan: Sendable {
    package var database: DatabaseID
    package var collectionID: String
    package var field: DocumentModel.FieldPath
    package var kind: IndexKind
    package var ranges: ValueRanges
    /// How many accepted documents answer the query (`offset + limit`) when the index lists
    /// them in the query's order; `nil`: read every entry in the ranges.
    package var limit: Int?
    /// Whether the entries are read from the last one back (the query's order is descending).
    package var reverse: Bool

    package init(
        database: DatabaseID, collectionID: String, field: DocumentModel.FieldPath, kind: IndexKind, ranges: ValueRanges,
        limit: Int?, reverse: Bool = false
    ) {
        self.database = database
        self.collectionID = collectionID
        self.field = field
        self.kind = kind
        self.ranges = ranges
        self.limit = limit
        self.reverse = reverse
    }

    /// The scan that narrows `view`'s query, or `nil` when the index cannot.
    package init?(_ view: QueryView) {
        let query = view.prepared
        guard query.nearest == nil, !query.scope.collectionID.isEmpty else { return nil }
        let conjunction = query.conjunctions.count == 1 ? query.conjunctions[0] : []
        let constant = Set(conjunction.filter { $0.kind == .value && $0.ranges.intervals.count == 1 && $0.ranges.isPoints }.map(\.field))
        let orders = query.orders.filter { !constant.contains($0.field) }
        let stopAfter = query.startAt == nil && query.endAt == nil ? query.limit.map { query.offset + $0 } : nil

        /// The limit of a scan driven by `field` and `kind` and its direction, when its order
        /// is the query's.
        func limit(_ field: DocumentModel.FieldPath, _ kind: IndexKind) -> (limit: Int, reverse: Bool)? {
            guard let stopAfter, kind == .value else { return nil }
            for direction in [Order.Direction.ascending, .descending] {
                let name = Order(.documentName, direction)
                let scanOrder = constant.contains(field) ? [name] : [Order(field, direction), name]
                if orders == scanOrder { return (stopAfter, direction == .descending) }
            }
            return nil
        }

        var best: (scan: CacheIndexScan, score: Int)?
        func consider(_ field: DocumentModel.FieldPath, _ kind: IndexKind, _ ranges: ValueRanges, isNegation: Bool) {
            let limit = limit(field, kind)
            if isNegation && limit == nil { return }
            let score = (ranges.isPoints ? 2 : 0) + (limit != nil ? 1 : 0)
            if let best, best.score >= score { return }
            best = (
                CacheIndexScan(
                    database: query.scope.database, collectionID: query.scope.collectionID, field: field, kind: kind,
                    ranges: ranges, limit: limit?.limit, reverse: limit?.reverse ?? false),
                score
            )
        }
        for predicate in conjunction where !predicate.isOnName {
            consider(predicate.field, predicate.kind, predicate.ranges, isNegation: Self.isNegation(predicate))
        }
        if let first = query.orders.first, !first.field.isDocumentName, limit(first.field, .value) != nil {
            consider(first.field, .value, .all, isNegation: false)
        }
        guard let best else { return nil }
        self = best.scan
    }

    /// Whether a predicate keeps every value but a few (reading it through the index costs more
    /// than a scan).
    private static func isNegation(_ predicate: QueryPredicate) -> Bool {
        switch predicate.test {
        case .field(let op, _): op == .notEqual || op == .notIn
        case .unary(let op): op == .isNotNull || op == .isNotNaN
        }
    }

    /// The group of the entries the scan reads (`CacheIndex`).
    package var group: [UInt8] {
        CacheIndex.group(database: database, collectionID: collectionID, field: field, kind: kind)
    }
}
