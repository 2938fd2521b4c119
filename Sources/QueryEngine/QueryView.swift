package import DocumentModel

/// A query prepared for evaluation over documents in memory, with the store's validation,
/// implicit orders and filter semantics: `DocumentStore.runQuery` prepares its queries with the
/// same code (`QueryValidator`), so the two cannot disagree on what matches or in which order.
///
/// ```swift
/// let view = try QueryView(query)
/// let visible = view.results(from: cachedDocuments)   // what the store would answer
/// ```
///
/// Vector searches (`findNearest`) are supported: the nearest of the matching documents, with
/// their distance in `distanceResultField`, as the store answers them.
package struct QueryView: Sendable {
    /// The query after validation, with the implicit orders added and the filter compiled.
    package let prepared: PreparedQuery
    private let ordering: QueryOrdering

    /// Validates `query` as the store does.
    ///
    /// - Throws: `FirestoreError(.invalidArgument, ...)` with the store's (Google's emulator's)
    ///   message for a query Firestore refuses.
    package init(_ query: DocumentModel.Query) throws {
        prepared = try QueryValidator.prepare(query)
        ordering = QueryOrdering(orders: prepared.orders)
    }

    /// The query's full order: the explicit orders, then the implicit ones, `__name__` last.
    package var orders: [Order] { prepared.orders }

    /// Whether a document named `name` lies in the query's scope: its database, under its
    /// parent, in its collection (directly) or collection group (at any depth).
    package func inScope(_ name: DocumentName) -> Bool {
        name.databaseID == prepared.scope.database && prepared.scope.contains(name.path)
    }

    /// Whether `document` is a result of the query before cursors, offset and limit: in scope,
    /// passing the filter, and having every ordered field.
    package func matches(_ document: Document) -> Bool {
        inScope(document.name) && (prepared.filter?.matches(document) ?? true) && ordering.hasOrderedFields(document)
    }

    /// Whether `lhs` comes strictly before `rhs` in the query's order (both matching documents;
    /// the order ends with `__name__`, so it is total on distinct documents).
    package func precedes(_ lhs: Document, _ rhs: Document) -> Bool {
        ordering.compare(lhs, rhs) < 0
    }

    /// What `DocumentStore.runQuery` answers when exactly `documents` are stored (any order, any
    /// superset of the query's scope): the matching documents, sorted, with the cursors, offset,
    /// limit, vector search and projection applied.
    ///
    /// The ordered values are read once per document, and a limit keeps only the first
    /// `offset + limit` documents while they arrive, so a limited query over many documents
    /// sorts few of them.
    package func results(from documents: some Sequence<Document>) -> [Document] {
        if prepared.isProvablyEmpty { return [] }
        var ranked = RankedDocuments(orders: prepared.orders, keep: keptCount)
        for document in documents where matches(document) && withinCursors(document) { ranked.add(document) }
        var results = ranked.sorted()
        if prepared.offset > 0 { results.removeFirst(min(prepared.offset, results.count)) }
        if let limit = prepared.limit, results.count > limit {
            results.removeLast(results.count - limit)
        }
        if let nearest = prepared.nearest { results = nearest.nearest(results) }
        return results.map { Projection.apply(prepared.projection, to: $0) }
    }

    /// How many of the first documents in order the answer can use: `offset + limit`, or all
    /// (`nil`) without a limit.
    private var keptCount: Int? {
        prepared.limit.map { prepared.offset + $0 }
    }

    /// Whether `document` lies between the start and end cursors (each a test of the document
    /// alone, so the window needs no sorted pass).
    private func withinCursors(_ document: Document) -> Bool {
        if let start = prepared.startAt, ordering.precedesStart(document, start) { return false }
        if let end = prepared.endAt, ordering.followsEnd(document, end) { return false }
        return true
    }
}
