public import Foundation
public import Hearth
import Synchronization

/// A database with security rules to test them against, the Swift counterpart of
/// `@firebase/rules-unit-testing`'s `RulesTestEnvironment`: contexts for signed-in and
/// anonymous clients, a context that bypasses the rules to set up data, clearing, and a
/// coverage report.
///
/// ```swift
/// let environment = try await RulesTestEnvironment(
///     projectID: "demo-rules", rules: .file("rules/firestore.rules"))   // embedded by default
/// try await environment.withSecurityRulesDisabled { admin in
///     try await admin.document("users/alice").setData(["uid": "alice"])
/// }
/// let bob = environment.authenticatedContext(uid: "bob").firestore()
/// try await assertSucceeds { try await bob.document("users/alice").getDocument() }
/// try await assertFails { try await bob.document("users/alice").delete() }
/// await environment.cleanup()
/// ```
///
/// An embedded environment is a fresh store in a temporary folder (in memory on Linux, in
/// `/dev/shm`, when it has room and `TMPDIR` is not set), so each test can have its own;
/// `withRulesTestEnvironment` scopes one to a closure.
public final class RulesTestEnvironment: Sendable {
    /// The project the environment's data and rules belong to.
    public let projectID: String
    /// The rules in force.
    public let rules: RulesSource
    /// Where the data lives.
    public let backend: RulesTestBackend
    /// Where `cleanup()` writes the coverage report (`nil`: nowhere).
    public let coverageReportDirectory: URL?

    private let implementation: any EnvironmentBackend

    /// Sets up an environment: a fresh temporary store with `rules` (`.embedded`), or `rules`
    /// loaded into the project on a running emulator (`.emulator`).
    ///
    /// - Parameters:
    ///   - projectID: the project the data and rules belong to.
    ///   - rules: the security rules, from a file or a string.
    ///   - backend: a fresh embedded store (the default) or a running emulator.
    ///   - coverageReportDirectory: where `cleanup()` writes the coverage report (embedded
    ///     environments with the same rules share their counts, so the last report of a run
    ///     covers the whole run).
    /// - Throws: `RulesCompilationError` (embedded) or `FirestoreError.invalidArgument`
    ///   (emulator) when the rules do not compile; `FirestoreError` when the store cannot be
    ///   created or the emulator cannot be reached.
    public init(
        projectID: String = "demo-rules-test", rules: RulesSource, backend: RulesTestBackend = .embedded,
        coverageReportDirectory: URL? = nil
    ) async throws {
        self.projectID = projectID
        self.rules = rules
        self.backend = backend
        self.coverageReportDirectory = coverageReportDirectory
        switch backend {
        case .embedded:
            implementation = try EmbeddedEnvironment(projectID: projectID, rules: rules)
        case .emulator(let host, let port):
            implementation = try await EmulatorEnvironment.start(
                host: host, port: port, projectID: projectID, rules: rules)
        }
    }

    /// A client signed in as `uid`: `request.auth.uid == uid`, and `request.auth.token`
    /// holds `claims` over the standard ID-token claims.
    public func authenticatedContext(uid: String, claims: [String: any Sendable] = [:]) -> RulesTestContext {
        RulesTestContext(database: implementation.admin.withIdentity(.user(uid: uid, claims: claims)))
    }

    /// A client that is not signed in: `request.auth == null`.
    public func unauthenticatedContext() -> RulesTestContext {
        RulesTestContext(database: implementation.admin.withIdentity(.unauthenticated))
    }

    /// Runs `body` with the database as the admin, whose requests bypass the rules: for
    /// setting up the data a test needs.
    ///
    /// `body` runs in the caller's isolation (`isolation` defaults to it), so it may capture
    /// what the caller can use and return a value that is not `Sendable`.
    @discardableResult
    public func withSecurityRulesDisabled<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (Firestore) async throws -> Result
    ) async throws -> Result {
        try await body(implementation.admin.withIdentity(.admin))
    }

    /// Deletes every document of the project.
    public func clearFirestore() async throws {
        try await implementation.clear()
    }

    /// What the rules' expressions have been evaluated to so far.
    public func coverageReport() async throws -> RulesCoverageReport {
        try await implementation.coverage()
    }

    /// Writes the coverage report into `coverageReportDirectory` (if set), then releases the
    /// environment: an embedded store is closed and its folder deleted.
    ///
    /// - Throws: the report's read or write error; the environment is released regardless.
    public func cleanup() async throws {
        do {
            try await writeCoverageReport()
        } catch {
            await implementation.shutdown()
            throw error
        }
        await implementation.shutdown()
    }

    /// Reports are numbered when requested; a report older than one already written to the
    /// same directory (environments cleaned up concurrently) is not written over it.
    private static let reportTickets = Mutex<(issued: Int, written: [URL: Int])>((0, [:]))

    private func writeCoverageReport() async throws {
        guard let directory = coverageReportDirectory else { return }
        let ticket = RulesTestEnvironment.reportTickets.withLock { state in
            state.issued += 1
            return state.issued
        }
        let report = try await coverageReport()
        try RulesTestEnvironment.reportTickets.withLock { state in
            guard ticket > state.written[directory, default: 0] else { return }
            try report.write(to: directory)
            state.written[directory] = ticket
        }
    }
}

/// Runs `body` with a new environment, then cleans it up (writing its coverage report if a
/// directory is given), whether `body` returns or throws.
///
/// `body` runs in the caller's isolation (`isolation` defaults to it): in a `@MainActor` test
/// it runs on the main actor, in an actor's method on that actor, so it may capture what the
/// caller can use and return a value that is not `Sendable`.
///
/// ```swift
/// @Test func strangersCannotWrite() async throws {
///     try await withRulesTestEnvironment(rules: .file("rules/firestore.rules")) { environment in
///         let bob = environment.authenticatedContext(uid: "bob").firestore()
///         try await assertFails { try await bob.document("users/alice").setData(["uid": "alice"]) }
///     }
/// }
/// ```
@discardableResult
public func withRulesTestEnvironment<Result>(
    projectID: String = "demo-rules-test", rules: RulesSource, backend: RulesTestBackend = .embedded,
    coverageReportDirectory: URL? = nil, isolation: isolated (any Actor)? = #isolation,
    _ body: (RulesTestEnvironment) async throws -> Result
) async throws -> Result {
    let environment = try await RulesTestEnvironment(
        projectID: projectID, rules: rules, backend: backend, coverageReportDirectory: coverageReportDirectory)
    let result: Result
    do {
        result = try await body(environment)
    } catch {
        try? await environment.cleanup()
        throw error
    }
    try await environment.cleanup()
    return result
}
