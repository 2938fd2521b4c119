import DocumentStore
import EmulatorServer
import Foundation
import HearthTesting
import Testing

/// The two backends the service's tests run on.
enum BackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A store in the test's process.
    case embedded
    /// A Hearth server started by the test on a loopback port, reached over gRPC.
    case remote

    var testDescription: String { rawValue }
}

/// The repository's `rules/firestore.rules`.
let profileRules: RulesSource = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return try! RulesSource.file(root.appendingPathComponent("rules/firestore.rules").path)
}()

/// Runs `body` with a fresh database under the repository's rules on `kind`'s backend.
func withProfileDatabase<Result: Sendable>(
    _ kind: BackendKind, _ body: (RulesTestEnvironment) async throws -> Result
) async throws -> Result {
    switch kind {
    case .embedded:
        return try await withRulesTestEnvironment(rules: profileRules, body)
    case .remote:
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-users-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DocumentStore(path: folder.path)
        defer { try? store.close() }
        return try await withEmulatorServer(store: store, configuration: EmulatorServerConfiguration(port: 0)) { server in
            let address = try await server.listeningAddress
            return try await withRulesTestEnvironment(
                rules: profileRules, backend: .emulator(host: address.host, port: address.port), body)
        }
    }
}
