import Hearth

/// A project on a running emulator, its rules loaded through the admin endpoint.
final class EmulatorEnvironment: EnvironmentBackend {
    let admin: Firestore
    private let client: EmulatorAdminClient

    private init(admin: Firestore, client: EmulatorAdminClient) {
        self.admin = admin
        self.client = client
    }

    static func start(host: String, port: Int, projectID: String, rules: RulesSource) async throws
        -> EmulatorEnvironment
    {
        let client = EmulatorAdminClient(host: host, port: port, projectID: projectID)
        try await client.loadRules(rules)
        return EmulatorEnvironment(admin: try Firestore.remote(host: host, port: port, projectID: projectID), client: client)
    }

    func clear() async throws {
        try await client.clearDocuments()
    }

    func coverage() async throws -> RulesCoverageReport {
        RulesCoverageReport(json: try await client.coverage(html: false), html: try await client.coverage(html: true))
    }

    func shutdown() async {
        await admin.terminate()
    }
}
