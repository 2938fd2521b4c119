import DocumentStore
import EmulatorServer
import Foundation
import HearthTesting
import Testing

/// The two backends the harness's tests run on.
enum EnvironmentKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A fresh store in the test's process.
    case embedded
    /// A Hearth server started by the test on a loopback port, rules loaded over HTTP.
    case remote

    var testDescription: String { rawValue }
}

/// The repository's `rules/firestore.rules`.
let repositoryRules: RulesSource = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return try! RulesSource.file(root.appendingPathComponent("rules/firestore.rules").path)
}()

/// Runs `body` with a new environment with `rules` on `kind`'s backend (for `.remote`, a
/// server over a fresh store, started for the test and stopped after it).
func withEnvironment<Result: Sendable>(
    _ kind: EnvironmentKind, rules: RulesSource = repositoryRules, coverageReportDirectory: URL? = nil,
    _ body: (RulesTestEnvironment) async throws -> Result
) async throws -> Result {
    switch kind {
    case .embedded:
        return try await withRulesTestEnvironment(rules: rules, coverageReportDirectory: coverageReportDirectory, body)
    case .remote:
        return try await withTestServer { host, port in
            try await withRulesTestEnvironment(
                rules: rules, backend: .emulator(host: host, port: port),
                coverageReportDirectory: coverageReportDirectory, body)
        }
    }
}

/// Runs `body` with the address of a new Hearth server over a fresh temporary store.
func withTestServer<Result: Sendable>(_ body: (String, Int) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-harness-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try DocumentStore(path: folder.path)
    defer { try? store.close() }
    return try await withEmulatorServer(store: store, configuration: EmulatorServerConfiguration(port: 0)) { server in
        let address = try await server.listeningAddress
        return try await body(address.host, address.port)
    }
}

/// Rules that allow everything, with a unique comment so their coverage counts are this test's own.
func openRules() -> RulesSource {
    .source(
        """
        rules_version = '2';
        // \(UUID().uuidString)
        service cloud.firestore {
          match /databases/{database}/documents {
            match /{document=**} {
              allow read, write: if request.time != null;
            }
          }
        }
        """)
}
