package import DocumentModel

/// The cursors, offset and limit, applied to results arriving in the query's order.
package struct ResultWindow {
    package let query: PreparedQuery
    package let ordering: QueryOrdering
    private var skipped = 0
    private var taken = 0

    package init(query: PreparedQuery, ordering: QueryOrdering) {
        self.query = query
        self.ordering = ordering
    }

    package enum Admission { case skip, take, stop }

    /// What to do with the next document in order.
    package mutating func admit(_ document: Document) -> Admission {
        if let start = query.startAt, ordering.precedesStart(document, start) { return .skip }
        if let end = query.endAt, ordering.followsEnd(document, end) { return .stop }
        if skipped < query.offset {
            skipped += 1
            return .skip
        }
        taken += 1
        return .take
    }

    /// Whether the limit is reached.
    package var isFull: Bool { query.limit.map { taken >= $0 } ?? false }
}
