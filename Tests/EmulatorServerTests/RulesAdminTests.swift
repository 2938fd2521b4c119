import DocumentStore
@testable import EmulatorServer
import Foundation
import Testing

/// `PUT /emulator/v1/projects/{p}:securityRules` and the coverage endpoints, in the shapes of
/// Google's emulator.
@Suite struct RulesAdminTests {
    private let documents = "/v1/projects/demo-test/databases/(default)/documents"
    private let admin = "/emulator/v1/projects/demo-test"

    private func body(_ source: String, name: String = "firestore.rules") throws -> String {
        let object = ["rules": ["files": [["name": name, "content": source]]]]
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func loadingRulesEnforcesThemForThatProjectOnly() async throws {
        try await TestServer.run { server in
            let http = server.http
            let open = try await http.send("GET", "\(documents)/users/bob", headers: RulesFixtures.userHeader("alice"))
            #expect(open.status == 404, "no rules: open, as Google's emulator")

            let loaded = try await http.send("PUT", "\(admin):securityRules", body: try body(RulesFixtures.source))
            #expect(loaded.status == 200, "\(loaded.body)")
            #expect(loaded.json as? [String: Any] != nil && (loaded.json as? [String: Any])?.isEmpty == true)

            let denied = try await http.send("GET", "\(documents)/users/bob", headers: RulesFixtures.userHeader("alice"))
            #expect(denied.status == 403)
            #expect(denied.errorStatus == "PERMISSION_DENIED")
            #expect(denied.body.contains(#"false for 'get' @ L8"#))
            let other = try await http.send(
                "GET", "/v1/projects/other/databases/(default)/documents/users/bob",
                headers: RulesFixtures.userHeader("alice"))
            #expect(other.status == 404, "another project keeps its own (open) rules")
            let owner = try await http.send("GET", "\(documents)/users/bob", headers: ["Authorization": "Bearer owner"])
            #expect(owner.status == 404, "the owner bypasses rules")
        }
    }

    @Test func aReloadedServerRulesFileAppliesToEveryProjectWithoutItsOwn() async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            let http = server.http
            let alice = RulesFixtures.userHeader("alice")
            let other = "/v1/projects/other/databases/(default)/documents"
            #expect(try await http.send("GET", "\(documents)/users/bob", headers: alice).status == 403)
            #expect(try await http.send("GET", "\(other)/users/bob", headers: alice).status == 403)
            let closed = "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    match /{document=**} {\n      allow read: if false;\n    }\n  }\n}\n"
            let loaded = try await http.send("PUT", "/emulator/v1/projects/other:securityRules", body: try body(closed))
            #expect(loaded.status == 200, "\(loaded.body)")

            let open = "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    match /{document=**} {\n      allow read: if true;\n    }\n  }\n}\n"
            try server.server.rules.setServerRules(RulesFile(source: open, fileName: "reloaded.rules"))
            #expect(
                try await http.send("GET", "\(documents)/users/bob", headers: alice).status == 404,
                "the reloaded file applies to a project that had the previous one")
            #expect(try await http.send("GET", "/v1/projects/fresh/databases/(default)/documents/users/bob", headers: alice).status == 404)
            #expect(
                try await http.send("GET", "\(other)/users/bob", headers: alice).status == 403,
                "a project's own rules outlast the file's reload")
            #expect(try await http.send("GET", "\(other)/users/bob", headers: ["Authorization": "Bearer owner"]).status == 404)
            #expect(server.server.store.rules(project: "demo-test")?.fileName == "reloaded.rules", "the server's rules are the store's")
        }
    }

    @Test func warningsAndErrorsAreReportedAsGooglesEmulatorDoes() async throws {
        try await TestServer.run { server in
            let http = server.http
            let warned = try await http.send(
                "PUT", "\(admin):securityRules",
                body: try body("service cloud.firestore {\n  match /databases/{database}/documents {\n    match /a/{b} {\n      allow read: if foo(1) && x;\n    }\n  }\n}\n"))
            #expect(warned.status == 200, "\(warned.body)")
            let issues = try #require((warned.json as? [String: Any])?["issues"] as? [[String: Any]])
            #expect(issues.map { $0["severity"] as? String } == ["WARNING", "WARNING", "WARNING"])
            #expect(issues.map { $0["description"] as? String }.last == "Invalid variable name: x.")
            let position = try #require(issues.last?["sourcePosition"] as? [String: Any])
            #expect(position["line"] as? Int == 4)
            #expect(position["column"] as? Int == 32)
            #expect(position["currentOffset"] as? Int == 118)
            #expect(position["endOffset"] as? Int == 118)

            try #require(try await http.send("PUT", "\(admin):securityRules", body: try body(RulesFixtures.source)).status == 200)
            let broken = try await http.send(
                "PUT", "\(admin):securityRules",
                body: try body("rules_version = \"2\";\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    match /a/{b} {\n      allow read: if foo(;\n    }\n  }\n}\n"))
            #expect(broken.status == 400)
            #expect(broken.errorStatus == "INVALID_ARGUMENT")
            let message = ((broken.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
            #expect(message == "Error compiling rules:\nL5:26 Unexpected ';'.")
            let stillDenied = try await http.send("GET", "\(documents)/users/bob", headers: RulesFixtures.userHeader("alice"))
            #expect(stillDenied.status == 403, "a file with errors leaves the project's rules as they were")

            for payload in ["not json", #"{"x": 1}"#] {
                let bad = try await http.send("PUT", "\(admin):securityRules", body: payload)
                #expect(bad.status == 400)
                #expect(bad.body.contains("Payload isn't valid for request."))
            }
        }
    }

    @Test func coverageReportsCountTheProjectsRequests() async throws {
        try await TestServer.run { server in
            let http = server.http
            let none = try await http.send("GET", "\(admin):ruleCoverage")
            #expect(none.status == 200)
            let openFiles = ((none.json as? [String: Any])?["rules"] as? [String: Any])?["files"] as? [[String: Any]]
            #expect(openFiles?.first?["name"] as? String == "OPEN_RULES")

            _ = try await http.send("PUT", "\(admin):securityRules", body: try body(RulesFixtures.source, name: "my.rules"))
            _ = try await http.send("GET", "\(documents)/users/bob", headers: RulesFixtures.userHeader("alice"))
            let coverage = try await http.send("GET", "\(admin):ruleCoverage")
            let report = try #require(coverage.json as? [String: Any])
            let files = (report["rules"] as? [String: Any])?["files"] as? [[String: Any]]
            #expect(files?.first?["name"] as? String == "my.rules")
            #expect(files?.first?["content"] as? String == RulesFixtures.source)
            #expect(coverage.body.contains(#""falseCount""#) || coverage.body.contains(#""values""#), "\(coverage.body)")

            let html = try await http.send("GET", "\(admin):ruleCoverage.html")
            #expect(html.status == 200)
            #expect(html.body.contains("allow read: if request.auth != null"))
        }
    }
}
