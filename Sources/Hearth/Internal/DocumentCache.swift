import DocumentModel
import Synchronization

/// What one `Firestore` instance has seen from the server: the latest state of each document
/// it read or heard about (present or known missing), and the latest results of each query.
///
/// Its own writes remove what they touch (the instance does not know the written result until
/// it reads it again), so a cache read never answers with data older than the instance's own
/// write. This is not offline persistence: nothing is kept beyond the instance.
final class DocumentCache: Sendable {
    private struct State {
        var documents: [DocumentName: Document?] = [:]
        var queries: [DocumentModel.Query: [Document]] = [:]
    }

    private let state = Mutex(State())

    /// Records a document read (`nil`: known to be missing).
    func record(_ document: Document?, name: DocumentName) {
        state.withLock { $0.documents[name] = .some(document) }
    }

    /// Records a query's results, and each of its documents.
    func record(_ documents: [Document], for query: DocumentModel.Query) {
        state.withLock { state in
            state.queries[query] = documents
            for document in documents { state.documents[document.name] = .some(document) }
        }
    }

    /// The cached state of a document: `nil` if never seen, `.some(nil)` if seen missing.
    func document(_ name: DocumentName) -> Document?? {
        state.withLock { $0.documents[name] }
    }

    /// The cached results of a query, if it ran and no write of this instance touched its collection since.
    func results(of query: DocumentModel.Query) -> [Document]? {
        state.withLock { $0.queries[query] }
    }

    /// Forgets the written documents and every query result that could include them.
    func invalidate(_ names: some Collection<DocumentName>) {
        state.withLock { state in
            guard !state.documents.isEmpty || !state.queries.isEmpty else { return }
            for name in names { state.documents[name] = nil }
            state.queries = state.queries.filter { query, _ in
                !names.contains { query.structured.from.collectionID == $0.collectionID || query.structured.from.collectionID.isEmpty }
            }
        }
    }
}
