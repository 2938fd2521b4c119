public import DocumentModel
public import DocumentStore
import Foundation
public import Hearth

extension Firestore {
    /// A database in a `DocumentStore` of this process. The store stays open after `terminate()`.
    ///
    /// ```swift
    /// let store = try DocumentStore(path: folder)
    /// let db = try Firestore.embedded(store: store, projectID: "demo-app")
    /// ```
    ///
    /// - Throws: `FirestoreError.invalidArgument` for an invalid project or database id.
    public static func embedded(
        store: DocumentStore, projectID: String = defaultProjectID, databaseID: String = DatabaseID.defaultDatabase,
        identity: Identity = .admin
    ) throws -> Firestore {
        try Firestore(
            backend: EmbeddedBackend(store: store, ownership: .borrowed),
            database: try DatabaseID(project: projectID, database: databaseID), identity: identity, ownsBackend: true)
    }

    /// A database in a store opened (or created) in the folder `path`, closed by `terminate()`.
    ///
    /// - Throws: `FirestoreError` when the folder cannot be opened (in use by another process,
    ///   written by a newer Hearth, corrupt) or an id is invalid.
    public static func embedded(
        path: String, projectID: String = defaultProjectID, databaseID: String = DatabaseID.defaultDatabase,
        identity: Identity = .admin
    ) throws -> Firestore {
        let database = try DatabaseID(project: projectID, database: databaseID)
        let store = try DocumentStore(path: path)
        return try Firestore(
            backend: EmbeddedBackend(store: store, ownership: .owned), database: database, identity: identity,
            ownsBackend: true)
    }

    /// A database in a new store in a temporary folder, deleted by `terminate()`. On Linux the
    /// folder is in `/dev/shm` (RAM) when it has room and `TMPDIR` is not set, so that creating
    /// the store waits for no disk.
    ///
    /// ```swift
    /// let db = try Firestore.embedded()
    /// defer { Task { await db.terminate() } }
    /// ```
    public static func embedded(
        projectID: String = defaultProjectID, databaseID: String = DatabaseID.defaultDatabase,
        identity: Identity = .admin
    ) throws -> Firestore {
        let database = try DatabaseID(project: projectID, database: databaseID)
        let (store, folder) = try TemporaryStoreFolder.openStore(prefix: "hearth")
        return try Firestore(
            backend: EmbeddedBackend(store: store, ownership: .temporary(folder)), database: database,
            identity: identity, ownsBackend: true)
    }
}
