import DocumentModel
import QueryEngine

/// What a query or aggregation in a read-write transaction read, including what it did not
/// find: its scope (collection or collection group under a parent), its filter, the documents
/// lacking an ordered field (never returned), its cursors and, once the limit cut the results,
/// the position of the last document returned. A commit by anyone else that inserts, deletes,
/// or moves a document into or out of the range conflicts with it, as a write to a document
/// the transaction read does.
///
/// This is a predicate lock: it covers exactly the documents that could change the answer.
/// Google's emulator locks every query's whole collection; production Firestore locks the
/// index ranges scanned. Both cover at least this range, so whatever conflicts here conflicts
/// there too.
struct RangeLock: Sendable {
    let query: PreparedQuery
    private let ordering: QueryOrdering
    /// The last document returned when the limit was reached (a later one cannot change the
    /// results); `nil` while reading, for an aggregation, or when the results ended first.
    private(set) var last: Document?
    /// How the range is named in conflict messages.
    let summary: String

    init(query: PreparedQuery, summary: String) {
        self.query = query
        ordering = QueryOrdering(orders: query.orders)
        self.summary = summary
    }

    /// Narrows the range to the results a limited query returned: `results` are its documents
    /// in order, before any projection.
    mutating func bound(byResults results: [Document]) {
        guard query.nearest == nil, let limit = query.limit, results.count >= limit, let final = results.last
        else { return }
        last = final
    }

    /// Whether a document in the state `document` (`nil`: missing, covered by nothing) lies in
    /// the range.
    func covers(_ document: Document?) -> Bool {
        guard let document, document.name.databaseID == query.scope.database,
            query.scope.contains(document.name.path),
            query.filter?.matches(document) ?? true, ordering.hasOrderedFields(document)
        else { return false }
        if let start = query.startAt, ordering.precedesStart(document, start) { return false }
        if let end = query.endAt, ordering.followsEnd(document, end) { return false }
        if let last, ordering.compare(document, last) > 0 { return false }
        return true
    }

    /// A short description of a query's range for messages: its collection and filtered fields.
    static func summary(of query: Query) -> String {
        let structured = query.structured
        let collection = structured.from.collectionID
        var text = structured.from.allDescendants ? "collection group '\(collection)'" : "collection '\(collection)'"
        if !query.parent.segments.isEmpty { text += " under \(query.parent)" }
        if let filter = structured.filter {
            let fields = Set(fieldPaths(of: filter).map(\.description)).sorted()
            if !fields.isEmpty { text += " filtered on \(fields.joined(separator: ", "))" }
        }
        return "the query range of \(text)"
    }

    private static func fieldPaths(of filter: QueryFilter) -> [FieldPath] {
        switch filter {
        case .field(let path, _, _), .unary(let path, _): [path]
        case .composite(_, let filters): filters.flatMap(fieldPaths)
        }
    }
}
