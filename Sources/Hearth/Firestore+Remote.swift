public import DocumentModel
public import Foundation

extension Firestore {
    /// The project id used when none is given: a `demo-` project, which the emulators treat as
    /// never reaching production.
    public static let defaultProjectID = "demo-hearth"

    /// The environment variable that names a running emulator (`host:port`), as the Firebase
    /// tools and SDKs read it.
    public static let emulatorHostVariable = "FIRESTORE_EMULATOR_HOST"

    /// A database in a Firestore emulator (Hearth's or Google's) at `host:port`, over gRPC in
    /// plaintext. `terminate()` closes the connection.
    ///
    /// Reads, listeners and writes go through a local cache, as in the Firebase SDKs: writes
    /// show in this instance's listeners at once and are queued while the server is away;
    /// reads fall back to the cache. `settings.cacheSettings` chooses a memory cache (the
    /// default) or a persistent one, which survives the process.
    ///
    /// ```swift
    /// var settings = FirestoreSettings()
    /// settings.cacheSettings = PersistentCacheSettings(path: "/tmp/app-cache")   // HearthPersistence
    /// let db = try Firestore.remote(host: "127.0.0.1", port: 8080, projectID: "demo-app", settings: settings)
    /// ```
    ///
    /// - Throws: `.failedPrecondition` when another instance or process uses the persistent
    ///   cache's folder.
    public static func remote(
        host: String, port: Int, projectID: String = defaultProjectID,
        databaseID: String = DatabaseID.defaultDatabase, identity: Identity = .admin,
        settings: FirestoreSettings = FirestoreSettings()
    ) throws -> Firestore {
        let database = try DatabaseID(project: projectID, database: databaseID)
        let backend = try RemoteBackend(host: host, port: port, database: database)
        do {
            return try Firestore(
                backend: backend, database: database, identity: identity, ownsBackend: true, settings: settings)
        } catch {
            Task { await backend.shutdown() }
            throw error
        }
    }

    /// A database in the emulator that `FIRESTORE_EMULATOR_HOST` names (`host:port`, or
    /// `[v6 address]:port`).
    ///
    /// - Throws: `.failedPrecondition` when the variable is unset or not `host:port`.
    public static func remote(
        projectID: String = defaultProjectID, databaseID: String = DatabaseID.defaultDatabase,
        identity: Identity = .admin, settings: FirestoreSettings = FirestoreSettings(),
        environment: [String: String] = ProcessInfo.processInfo.environment
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
        return try remote(
            host: host, port: port, projectID: projectID, databaseID: databaseID, identity: identity, settings: settings)
    }
}
