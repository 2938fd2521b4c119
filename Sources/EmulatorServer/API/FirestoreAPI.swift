import DocumentModel
import DocumentStore
import FirestoreExport
import FirestoreWire

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
    /// The export every project is seeded with on first use (`hearth start --import`), if any.
    let seeding: ProjectSeeding?

    init(store: DocumentStore, seeding: ProjectSeeding? = nil) {
        self.store = store
        self.seeding = seeding
    }

    /// The database a request names, seeded first if an export seeds every project.
    func seededDatabase(_ text: String) throws -> DatabaseID {
        let database = try ResourceName.database(text)
        try seeding?.seed(database)
        return database
    }

    /// The database and parent path a request names, the database seeded first.
    func seededParent(_ text: String) throws -> (database: DatabaseID, path: ResourcePath) {
        let parent = try ResourceName.parent(text)
        try seeding?.seed(parent.database)
        return parent
    }

    /// The document a request names, its database seeded first.
    func seededDocument(_ text: String) throws -> DocumentName {
        let name = try ResourceName.document(text)
        try seeding?.seed(name.databaseID)
        return name
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
