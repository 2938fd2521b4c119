import Hearth

/// What a `RulesTestEnvironment` needs from where it runs.
protocol EnvironmentBackend: Sendable {
    /// The database as the admin (rules bypassed).
    var admin: Firestore { get }
    /// Deletes every document of the environment's project.
    func clear() async throws
    /// What the rules have covered so far.
    func coverage() async throws -> RulesCoverageReport
    /// Releases the store or the connection.
    func shutdown() async
}
