import DocumentModel
import DocumentStore
import Foundation

extension Firestore {
    /// The project id used when none is given: a `demo-` project, which the emulators treat as
    /// never reaching production.
    public static let defaultProjectID = "demo-hearth"

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
        Firestore(
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
        return Firestore(
            backend: EmbeddedBackend(store: store, ownership: .owned), database: database, identity: identity,
            ownsBackend: true)
    }

    /// A database in a new store in a temporary folder, deleted by `terminate()`.
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID().uuidString)")
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: folder.path, configuration: configuration)
        return Firestore(
            backend: EmbeddedBackend(store: store, ownership: .temporary(folder)), database: database,
            identity: identity, ownsBackend: true)
    }
}

extension Firestore {
    /// The environment variable that names a running emulator (`host:port`), as the Firebase
    /// tools and SDKs read it.
    public static let emulatorHostVariable = "FIRESTORE_EMULATOR_HOST"

    /// A database in a Firestore emulator (Hearth's or Google's) at `host:port`, over gRPC in
    /// plaintext. `terminate()` closes the connection.
    ///
    /// ```swift
    /// let db = try Firestore.remote(host: "127.0.0.1", port: 8080, projectID: "demo-app")
    /// ```
    public static func remote(
        host: String, port: Int, projectID: String = defaultProjectID,
        databaseID: String = DatabaseID.defaultDatabase, identity: Identity = .admin
    ) throws -> Firestore {
        let database = try DatabaseID(project: projectID, database: databaseID)
        return Firestore(
            backend: try RemoteBackend(host: host, port: port, database: database), database: database,
            identity: identity, ownsBackend: true)
    }

    /// A database in the emulator that `FIRESTORE_EMULATOR_HOST` names (`host:port`, or
    /// `[v6 address]:port`).
    ///
    /// - Throws: `.failedPrecondition` when the variable is unset or not `host:port`.
    public static func remote(
        projectID: String = defaultProjectID, databaseID: String = DatabaseID.defaultDatabase,
        identity: Identity = .admin, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Firestore {
        guard let value = environment[emulatorHostVariable], !value.isEmpty else {
            throw FirestoreError(.failedPrecondition, "\(emulatorHostVariable) is not set: start an emulator and set it to host:port")
        }
        guard let colon = value.lastIndex(of: ":"), let port = Int(value[value.index(after: colon)...]),
            (1...65535).contains(port)
        else {
            throw FirestoreError(.failedPrecondition, "\(emulatorHostVariable) must be host:port, got '\(value)'")
        }
        var host = String(value[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return try remote(host: host, port: port, projectID: projectID, databaseID: databaseID, identity: identity)
    }
}
