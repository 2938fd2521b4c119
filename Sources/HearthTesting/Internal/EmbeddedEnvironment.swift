import DocumentModel
import DocumentStore
import Foundation
import Hearth
import HearthEmbedded
import SecurityRules

/// A fresh `DocumentStore` in a temporary folder (`TemporaryStoreFolder`: in RAM where the
/// machine allows) with the rules set on it for the project, deleted on shutdown.
final class EmbeddedEnvironment: EnvironmentBackend {
    let admin: Firestore
    private let store: DocumentStore
    private let folder: URL
    private let ruleset: Ruleset
    private let database: DatabaseID

    init(projectID: String, rules: RulesSource) throws {
        ruleset = try RulesetCache.ruleset(for: rules)
        database = try DatabaseID(project: projectID)
        (store, folder) = try TemporaryStoreFolder.openStore(prefix: "hearth-rules-test")
        store.setRules(ruleset, project: projectID)
        admin = try Firestore.embedded(store: store, projectID: projectID)
    }

    func clear() async throws {
        _ = try await store.writing { [store, database] in try store.clear(database) }
    }

    func coverage() async throws -> RulesCoverageReport {
        // Rulesets of the cache record coverage.
        let coverage = ruleset.coverage!
        return RulesCoverageReport(json: coverage.jsonReport(), html: coverage.htmlReport())
    }

    func shutdown() async {
        await admin.terminate()
        try? store.close()
        try? FileManager.default.removeItem(at: folder)
    }
}
