import DocumentModel
import DocumentStore
import EmulatorServer
import Foundation
import Hearth
import HearthEmbedded
import SecurityRules
import Testing

/// The two backends the shared tests run on.
enum BackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A `DocumentStore` in the test's process.
    case embedded
    /// A Hearth server on a loopback port, reached over gRPC.
    case remote

    var testDescription: String { rawValue }
}

/// A fresh store in a temporary folder, reached through `kind`'s backend: `db` acts as the
/// admin; `as(_:)` gives other identities. Rules given to `with` apply to every project (the
/// store's for the embedded backend, the server's `rules` for the remote one).
struct TestDatabase: Sendable {
    let db: Firestore
    let store: DocumentStore
    /// The server's address, for the remote backend.
    var serverAddress: (host: String, port: Int)? = nil

    /// The project of every test database.
    static let project = "demo-hearth-tests"
    /// Its default database.
    static let database = try! DatabaseID(project: project)

    func `as`(_ identity: Identity) -> Firestore { db.withIdentity(identity) }

    /// Runs `body` with a new database on `kind`'s backend, then tears everything down.
    static func with<Result: Sendable>(
        _ kind: BackendKind, rules: String? = nil, _ body: (TestDatabase) async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: folder.path, configuration: configuration)
        defer { try? store.close() }
        switch kind {
        case .embedded:
            if let rules { store.setRules(try Ruleset(source: rules), project: project) }
            let db = try Firestore.embedded(store: store, projectID: project)
            let result = try await body(TestDatabase(db: db, store: store))
            await db.terminate()
            return result
        case .remote:
            let configuration = EmulatorServerConfiguration(port: 0, rules: rules.map { RulesFile(source: $0) })
            return try await withEmulatorServer(store: store, configuration: configuration) {
                server in
                let address = try await server.listeningAddress
                let db = try Firestore.remote(host: address.host, port: address.port, projectID: project)
                do {
                    let result = try await body(
                        TestDatabase(db: db, store: store, serverAddress: (address.host, address.port)))
                    await db.terminate()
                    return result
                } catch {
                    await db.terminate()
                    throw error
                }
            }
        }
    }
}

/// Expects `body` to throw a `FirestoreError` with `code`; returns it.
@discardableResult
func expectError(
    _ code: FirestoreErrorCode, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> FirestoreError? {
    do {
        try await body()
        Issue.record("Expected \(code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as FirestoreError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected FirestoreError \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
