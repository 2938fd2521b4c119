import DocumentModel
@testable import EmulatorServer
import FirestoreProto
import Foundation
import Testing

/// The console's JSON API: the overview, a project's rules with coverage, and the request log
/// with the rules evaluation of a denied request.
@Suite struct ConsoleAPITests {
    private let documents = "/v1/projects/demo-test/databases/(default)/documents"
    private let owner = ["Authorization": "Bearer owner"]

    @Test func overviewListsProjectsWithTheirDocumentCountsAndRules() async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            for id in ["a", "b", "c"] {
                let created = try await server.http.send(
                    "POST", "\(documents)/open?documentId=\(id)", body: #"{"fields": {}}"#, headers: owner)
                #expect(created.status == 200)
            }
            let other = "/v1/projects/other-test/databases/(default)/documents"
            _ = try await server.http.send("POST", "\(other)/open?documentId=x", body: "{}", headers: owner)
            _ = try await server.http.send("DELETE", "\(other)/open/x", headers: owner)

            let overview = try await server.http.send("GET", "/ui/api/overview")
            #expect(overview.status == 200)
            let json = try #require(overview.json as? [String: Any])
            #expect(json["port"] as? Int == server.address.port)
            #expect(json["host"] as? String == server.address.host)
            let projects = try #require(json["projects"] as? [[String: Any]])
            let demo = try #require(projects.first { $0["id"] as? String == "demo-test" })
            let databases = demo["databases"] as? [[String: Any]]
            #expect(databases?.count == 1)
            #expect(databases?.first?["id"] as? String == "(default)")
            #expect(databases?.first?["documents"] as? Int == 3)
            let rules = try #require(demo["rules"] as? [String: Any])
            #expect(rules["status"] as? String == "loaded")
            #expect(rules["fileName"] as? String == "firestore.rules")
            #expect(rules["loadedAt"] is String)
            #expect((rules["diagnostics"] as? [Any])?.isEmpty == true)
            // Its only document deleted, the other project has no data but has the server's rules.
            let emptied = try #require(projects.first { $0["id"] as? String == "other-test" })
            #expect((emptied["databases"] as? [[String: Any]])?.first?["documents"] as? Int == 0)
        }
    }

    @Test func overviewReportsAFailedRulesReload() async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            #expect(throws: (any Error).self) { try server.server.rules.setServerRules(RulesFile(source: "rules_version = '2';\nnot rules")) }
            let overview = try await server.http.send("GET", "/ui/api/overview")
            let projects = (overview.json as? [String: Any])?["projects"] as? [[String: Any]]
            // Without data, no project is listed but those rules or the configuration name.
            #expect(projects?.isEmpty == true)
            let rules = try await server.http.send("GET", "/ui/api/rules/demo-test")
            let json = try #require(rules.json as? [String: Any])
            #expect(json["status"] as? String == "error")
            let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
            #expect(diagnostics.first?["severity"] as? String == "error")
            #expect(diagnostics.first?["line"] as? Int == 2)
            // The last good rules stay in force, and are the source shown.
            #expect(json["source"] as? String == RulesFixtures.source)
            #expect(json["loadedAt"] is String)
        }
    }

    @Test func rulesReportSourceAndCoverage() async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            let read = try await server.http.send("GET", "\(documents)/users/bob", headers: RulesFixtures.userHeader("bob"))
            #expect(read.status == 404)
            let response = try await server.http.send("GET", "/ui/api/rules/demo-test")
            #expect(response.status == 200)
            let json = try #require(response.json as? [String: Any])
            #expect(json["project"] as? String == "demo-test")
            #expect(json["source"] as? String == RulesFixtures.source)
            #expect(json["status"] as? String == "loaded")
            #expect(json["fileName"] as? String == "firestore.rules")
            let coverage = try #require(json["coverage"] as? [[String: Any]])
            // The read rule on line 8 was evaluated, and was true; the create rule on line 9 never ran.
            let line8 = coverage.filter { $0["startLine"] as? Int == 8 }
            #expect(!line8.isEmpty)
            #expect(line8.contains { $0["evaluations"] as? Int == 1 && $0["trueCount"] as? Int == 1 })
            #expect(coverage.filter { $0["startLine"] as? Int == 9 }.allSatisfy { $0["evaluations"] as? Int == 0 })
        }
    }

    @Test func rulesOfAProjectWithoutRulesAreNone() async throws {
        try await TestServer.run { server in
            let response = try await server.http.send("GET", "/ui/api/rules/demo-test")
            let json = try #require(response.json as? [String: Any])
            #expect(json["status"] as? String == "none")
            #expect(json["source"] as? String == "")
            #expect(json["loadedAt"] is NSNull)
            #expect((json["coverage"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func deniedRequestIsLoggedWithItsEvaluation() async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            let denied = try await server.http.send(
                "POST", "\(documents)/users?documentId=alice", body: #"{"fields": {"name": {"stringValue": "Al"}}}"#,
                headers: RulesFixtures.userHeader("bob"))
            #expect(denied.status == 403)
            _ = try await server.http.send("GET", "\(documents)/users/alice", headers: owner)

            let listed = try await server.http.send("GET", "/ui/api/requests?limit=1")
            let lastOnly = try #require((listed.json as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(lastOnly.count == 1)
            #expect(lastOnly.first?["verdict"] as? String == "admin")
            #expect(lastOnly.first?["hasEvaluation"] as? Bool == false)

            let all = try await server.http.send("GET", "/ui/api/requests")
            let entries = try #require((all.json as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(entries.count == 2)
            let entry = try #require(entries.first)
            #expect(entry["verdict"] as? String == "denied")
            #expect(entry["status"] as? String == "PERMISSION_DENIED")
            #expect(entry["caller"] as? String == "bob")
            #expect(entry["protocol"] as? String == "HTTP")
            #expect(entry["method"] as? String == "POST")
            #expect(entry["hasEvaluation"] as? Bool == true)
            #expect(entry["time"] is String)
            #expect(entry["latencyMs"] is Double || entry["latencyMs"] is Int)
            let id = try #require(entry["id"] as? Int)

            let detail = try await server.http.send("GET", "/ui/api/requests/\(id)")
            #expect(detail.status == 200)
            let json = try #require(detail.json as? [String: Any])
            let evaluation = try #require(json["evaluation"] as? [String: Any])
            #expect(evaluation["project"] as? String == "demo-test")
            #expect(evaluation["fileName"] as? String == "firestore.rules")
            #expect(evaluation["source"] as? String == RulesFixtures.source)
            let decisions = try #require(evaluation["decisions"] as? [[String: Any]])
            #expect(decisions.count == 1)
            let decision = try #require(decisions.first)
            #expect(decision["method"] as? String == "create")
            #expect(decision["path"] as? String == "/databases/(default)/documents/users/alice")
            #expect(decision["allowed"] as? Bool == false)
            #expect((decision["auth"] as? [String: Any])?["uid"] as? String == "bob")
            #expect(decision["resourceData"] is NSNull)
            let newData = decision["requestResourceData"] as? [String: Any]
            #expect((newData?["name"] as? [String: Any])?["stringValue"] as? String == "Al")
            let evaluations = try #require(decision["evaluations"] as? [[String: Any]])
            #expect(evaluations.count == 1)
            #expect(evaluations.first?["line"] as? Int == 9)
            #expect(evaluations.first?["outcome"] as? String == "false")
            #expect(evaluations.first?["method"] as? String == "create")

            let owned = try await server.http.send("GET", "/ui/api/requests/\(id + 1)")
            #expect((owned.json as? [String: Any])?["evaluation"] is NSNull)
        }
    }

    @Test func deniedReadsAreLoggedWithTheirEvaluations() async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            let bob = RulesFixtures.userHeader("bob")
            #expect(try await server.http.send("GET", "\(documents)/users/alice", headers: bob).status == 403)
            #expect(try await server.http.send("GET", "\(documents)/users", headers: bob).status == 403)
            let all = try await server.http.send("GET", "/ui/api/requests")
            let entries = try #require((all.json as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(entries.map { $0["verdict"] as? String } == ["denied", "denied"])
            var methods: [String] = []
            for entry in entries {
                let id = try #require(entry["id"] as? Int)
                let detail = try await server.http.send("GET", "/ui/api/requests/\(id)")
                let evaluation = (detail.json as? [String: Any])?["evaluation"] as? [String: Any]
                let decision = try #require((evaluation?["decisions"] as? [[String: Any]])?.first)
                #expect(decision["allowed"] as? Bool == false)
                #expect((decision["auth"] as? [String: Any])?["uid"] as? String == "bob")
                methods.append(decision["method"] as? String ?? "")
            }
            #expect(methods == ["get", "list"])
        }
    }

    /// A commit, batch write or batch get names the database as its path; its entry lists the
    /// documents it named (the first 20, with their count), for the console's path filter.
    @Test func requestsOnTheDatabaseListTheDocumentsTheyName() async throws {
        try await TestServer.run { server in
            let names = (0..<25).map { TestServer.name("c/d\($0)") }
            _ = try await server.grpc.commit(
                Proto.commit((0..<25).map { Proto.update("c/d\($0)", ["n": .integer(Int64($0))]) }), metadata: TestServer.owner)
            var batchGet = Google_Firestore_V1_BatchGetDocumentsRequest()
            batchGet.database = TestServer.database
            batchGet.documents = [names[3], TestServer.name("c/missing")]
            _ = try await server.grpc.batchGetDocuments(batchGet, metadata: TestServer.owner) { response in
                try await response.messages.reduce(into: 0) { count, _ in count += 1 }
            }
            // A commit that fails still shows what it named: here a document of another database.
            let elsewhere = TestServer.name("c/x", database: "projects/demo-test/databases/other")
            var foreign = Google_Firestore_V1_Write()
            foreign.delete = elsewhere
            let refused = await rpcError {
                try await server.grpc.commit(Proto.commit([Proto.update("c/ok", ["n": 1]), foreign]), metadata: TestServer.owner)
            }
            #expect(refused?.code == .invalidArgument)
            let rest = try await server.http.send(
                "POST", "\(documents):commit",
                body: #"{"writes": [{"delete": "projects/demo-test/databases/(default)/documents/c/d1"}]}"#, headers: owner)
            #expect(rest.status == 200)
            _ = try await server.http.send("GET", "\(documents)/c/d2", headers: owner)

            let all = try await server.http.send("GET", "/ui/api/requests")
            let entries = try #require((all.json as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(entries.map { $0["method"] as? String } == ["Commit", "BatchGetDocuments", "Commit", "POST", "GET"])
            #expect(entries.map { $0["path"] as? String }.prefix(3).allSatisfy { $0 == TestServer.database })
            #expect(entries.map { $0["documents"] as? [String] ?? ["not a list"] } == [
                Array(names.prefix(20)), batchGet.documents, [TestServer.name("c/ok"), elsewhere], [names[1]], [],
            ])
            #expect(entries.map { $0["documentCount"] as? Int } == [25, 2, 2, 1, 0])
            #expect(entries[2]["status"] as? String == "INVALID_ARGUMENT")

            // The server's own log entries carry the same names.
            let logged = server.log.all
            #expect(logged.map(\.documentCount) == [25, 2, 2, 1, 0])
            #expect(logged.first?.documents == Array(names.prefix(20)))
        }
    }

    @Test func requestLimitMustBeANumber() async throws {
        try await TestServer.run { server in
            let response = try await server.http.send("GET", "/ui/api/requests?limit=many")
            #expect(response.status == 400)
            #expect(response.errorStatus == "INVALID_ARGUMENT")
        }
    }
}
