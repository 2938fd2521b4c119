import DocumentModel
import Foundation

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
