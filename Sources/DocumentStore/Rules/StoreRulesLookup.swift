import DocumentModel
import SecurityRules

/// What `get()`/`exists()` and `getAfter()`/`existsAfter()` read during a rules evaluation:
/// the newest committed documents, and the same with a commit's pending writes applied.
struct StoreRulesLookup: DocumentLookup {
    let store: DocumentStore
    /// The pending commit's state of the documents it touches (`nil` inside: deleted).
    let pending: [DocumentName: Document?]

    func document(_ name: DocumentName) throws -> Document? {
        try store.document(name)
    }

    func documentAfter(_ name: DocumentName) throws -> Document? {
        if let state = pending[name] { return state }
        return try store.document(name)
    }
}
