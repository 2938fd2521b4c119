package import DocumentModel
package import Foundation

/// A Firestore database, reached through an embedded store or a remote emulator, acting as
/// one `Identity`. Names follow the FirebaseFirestore SDK, so app code ports with few changes.
///
/// ```swift
/// let db = try Firestore.embedded()   // HearthEmbedded: a store in a temporary folder
/// let alice = db.collection("users").document("alice")
/// try await alice.setData(["name": "Alice", "createdAt": FieldValue.serverTimestamp()])
/// let snapshot = try await alice.getDocument()
/// print(snapshot.data() ?? [:])
/// ```
public final class Firestore: Sendable {
    let backend: any Backend
    /// The database every reference of this instance points into.
    let database: DatabaseID
    /// Who the requests come from.
    public let identity: Identity
    /// The local cache, the queue of pending writes and the listeners' views.
    let sync: SyncEngine
    /// Whether `terminate()` releases the backend (false for instances made by `withIdentity`).
    private let ownsBackend: Bool

    package init(
        backend: any Backend, database: DatabaseID, identity: Identity, ownsBackend: Bool,
        settings: FirestoreSettings = FirestoreSettings()
    ) throws {
        self.backend = backend
        self.database = database
        self.identity = identity
        self.ownsBackend = ownsBackend
        sync = try SyncEngine(backend: backend, database: database, identity: identity, cacheSettings: settings.cacheSettings)
    }

    /// The project id.
    public var projectID: String { database.project }

    /// The database id within the project (`"(default)"` unless chosen).
    public var databaseID: String { database.database }

    /// Another instance over the same backend acting as `identity`, with its own memory cache.
    ///
    /// ```swift
    /// let alice = db.withIdentity(.user(uid: "alice"))
    /// try await alice.document("users/alice").setData(["name": "Alice"])
    /// ```
    public func withIdentity(_ identity: Identity) -> Firestore {
        // A memory cache cannot fail to open.
        try! Firestore(backend: backend, database: database, identity: identity, ownsBackend: false)
    }

    /// The collection at `collectionPath` (`"users"`, `"users/alice/posts"`).
    public func collection(_ collectionPath: String) -> CollectionReference {
        CollectionReference(firestore: self, path: collectionPath)
    }

    /// The document at `documentPath` (`"users/alice"`).
    public func document(_ documentPath: String) -> DocumentReference {
        DocumentReference(firestore: self, path: documentPath)
    }

    /// A query over every collection named `collectionID`, at any depth.
    public func collectionGroup(_ collectionID: String) -> Query {
        Query(firestore: self, parent: "", collectionID: collectionID, allDescendants: true)
    }

    /// A batch of writes committed atomically by `commit()`.
    public func batch() -> WriteBatch {
        WriteBatch(firestore: self)
    }

    /// Stops the instance's listeners and closes its cache, then releases the backend: a remote
    /// connection, or the temporary store of `embedded()`. Instances made by `withIdentity`
    /// share their parent's backend and release only their own cache. Writes the server has
    /// not acknowledged stay in a persistent cache, and the next instance on its path sends them.
    public func terminate() async {
        await sync.terminate()
        if ownsBackend { await backend.shutdown() }
    }

    deinit {
        // Dropped without `terminate()`: the writer task would keep the engine alive for ever.
        sync.endWriter()
    }
}
