import DocumentModel
import DocumentStore
import FirestoreWire
import Foundation
import SecurityRules
import Testing

/// Replays the security-rules conformance cases, whose verdicts were recorded from Google's
/// emulator (`Tests/SecurityRulesConformance`), against Hearth: rules loaded into a store,
/// documents seeded as admin, the request made as the case's user through the store's API.
@Suite("Security rules conformance with Google's emulator")
struct RulesConformanceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SecurityRulesConformance/cases")

    static var caseFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test("the recorded cases are there")
    func casesExist() {
        #expect(RulesConformanceTests.caseFiles.count >= 10)
    }

    @Test("Hearth gives every recorded verdict", arguments: RulesConformanceTests.caseFiles)
    func verdicts(file: String) async throws {
        let text = try String(contentsOf: RulesConformanceTests.folder.appendingPathComponent(file), encoding: .utf8)
        guard case .array(let cases) = try JSONValue(parsing: text) else { throw FirestoreError.invalidArgument(file) }
        let fixture = try StoreFixture(systemClock: true)
        let database = try DatabaseID(project: RulesConformanceCase.project)
        var failures: [String] = []
        for testCase in cases {
            let name = (try? RulesConformanceCase.string(testCase["name"])) ?? "?"
            do {
                let verdict = try await run(testCase, store: fixture.store, database: database)
                let expected = try RulesConformanceCase.string(testCase["expected"]?["verdict"])
                if verdict != expected { failures.append("\(name): \(verdict), expected \(expected)") }
            } catch {
                failures.append("\(name): \(error)")
            }
        }
        for failure in failures.prefix(40) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(file): \(cases.count - failures.count) passed, \(failures.count) failed")
    }

    /// Runs one case on a cleared database and returns `allow` or `deny`.
    private func run(_ testCase: JSONValue, store: DocumentStore, database: DatabaseID) async throws -> String {
        _ = try store.clear(database)
        let ruleset = try Ruleset(source: try RulesConformanceCase.string(testCase["rules"]))
        store.setRules(ruleset, project: database.project)
        if case .object(let documents)? = testCase["documents"] {
            try store.commit(try documents.map { member in
                .set(try RulesConformanceCase.name(member.key, in: database), fields: try RESTJSON.decodeFields(member.value))
            })
        }
        let request = try #require(testCase["request"])
        let identity = try RulesConformanceCase.identity(request["auth"])
        do {
            switch try RulesConformanceCase.string(request["kind"]) {
            case "get":
                _ = try store.document(
                    try RulesConformanceCase.name(try RulesConformanceCase.string(request["path"]), in: database),
                    as: identity)
            case "commit":
                let writes = try RulesConformanceCase.array(request["writes"]).map {
                    try RulesConformanceCase.write($0, in: database)
                }
                try store.commit(writes, as: identity)
            case "query":
                let parentText = try RulesConformanceCase.string(request["parent"])
                let structured = try RESTJSON.decodeQuery(try #require(request["structuredQuery"]))
                _ = try store.runQuery(
                    Query(database: database, parent: try ResourcePath(parentText), structured: structured), as: identity)
            case let kind:
                throw FirestoreError.invalidArgument("unknown request kind \(kind)")
            }
        } catch let error as FirestoreError where error.code == .permissionDenied {
            return "deny"
        } catch let error as FirestoreError where [.notFound, .alreadyExists, .failedPrecondition].contains(error.code) {
            return "allow"
        }
        return "allow"
    }
}
