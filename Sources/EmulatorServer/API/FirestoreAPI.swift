import DocumentModel
import DocumentStore

/// Firestore's v1 API on a `DocumentStore`, independent of the wire: the gRPC service and the
/// REST gateway both decode a request message, call one of these methods and encode what it
/// returns, so the two protocols cannot drift apart.
///
/// Methods throw `FirestoreError`; only the wire layers map errors to statuses. Those that may
/// read in a transaction are `async` (a read-write transaction waits for its locks). Every
/// method takes the caller's `RequestContext` and acts as its `identity`, so the project's
/// security rules decide every request but the owner's.
struct FirestoreAPI: Sendable {
    /// The store that holds every project's and database's documents.
    let store: DocumentStore

    init(store: DocumentStore) {
        self.store = store
    }

    /// A new document id as Firestore's clients make them: 20 letters and digits.
    static func autoID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// The error for a document that a read requires and that does not exist.
    static func notFound(_ name: DocumentName) -> FirestoreError {
        FirestoreError(.notFound, "Document (\(name.resourceName)) not found.")
    }
}
