import DocumentModel
import Foundation
import Testing

@testable import HearthBenchmarks
@testable import SecurityRules

/// The project's own rules (`rules/firestore.rules`, the users collection of the profile
/// service). Every verdict and denial message here was observed on Google's emulator, with
/// writes that set `createdAt`/`updatedAt` by server-time transforms.
@Suite struct ProjectRulesTests {
    static let source: String = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("rules/firestore.rules")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    static let ruleset: Ruleset? = try? Ruleset(source: source)

    static func profile(_ uid: String, _ changes: MapValue = [:]) -> MapValue {
        var data: MapValue = [
            "uid": .string(uid), "email": .string("\(uid)@example.com"), "displayName": "Someone",
            "createdAt": .timestamp(Fixture.time), "updatedAt": .timestamp(Fixture.time),
        ]
        for entry in changes { data[entry.key] = entry.value }
        return data
    }

    static let stored = Fixture.document("users/alice", profile("alice"))

    /// A request as the store makes it for a commit with server-time transforms.
    static func write(_ method: RulesMethod, _ path: String, _ uid: String?, _ data: MapValue?) -> RulesRequest {
        var request = Fixture.request(method, path, uid: uid, newData: data)
        if method == .update { request.resource = stored }
        request.newResourceDependsOnStoredDocument = true
        return request
    }

    func decide(_ request: RulesRequest) throws -> RulesDecision {
        let ruleset = try #require(ProjectRulesTests.ruleset, "rules/firestore.rules did not compile")
        return ruleset.evaluate(request, lookup: InMemoryDocuments(before: [ProjectRulesTests.stored]))
    }

    @Test func compilesWithoutWarnings() throws {
        #expect(!ProjectRulesTests.source.isEmpty)
        #expect(Ruleset.check(source: ProjectRulesTests.source).isEmpty)
    }

    @Test func reads() throws {
        var get = Fixture.request(.get, "users/alice", uid: "bob")
        get.resource = ProjectRulesTests.stored
        #expect(try decide(get).allowed)
        get.auth = nil
        #expect(try decide(get).message == "\nfalse for 'get' @ L9")
        var list = Fixture.request(.list, "users", uid: "bob", query: RulesQuery())
        #expect(try decide(list).allowed)
        list.auth = nil
        #expect(try decide(list).message == "\nfalse for 'list' @ L9")
    }

    @Test func creates() throws {
        func profile(_ uid: String, _ changes: MapValue = [:]) -> MapValue { ProjectRulesTests.profile(uid, changes) }
        func write(_ method: RulesMethod, _ path: String, _ uid: String?, _ data: MapValue) -> RulesRequest {
            ProjectRulesTests.write(method, path, uid, data)
        }
        #expect(try decide(write(.create, "users/bob", "bob", profile("bob", [:]))).allowed)
        #expect(try decide(write(.create, "users/bob", "bob", profile("bob", ["photoURL": nil]))).allowed)
        #expect(try decide(write(.create, "users/carol", "bob", profile("carol"))).message == "\nfalse for 'create' @ L10")
        #expect(try decide(write(.create, "users/dave", nil, profile("dave"))).message == "\nfalse for 'create' @ L10")
        let invalid: [MapValue] = [
            profile("bob", ["email": "bob at example"]),
            profile("bob", ["admin": true]),
            profile("bob", ["displayName": .string(String(repeating: "x", count: 51))]),
            profile("alice"),
            profile("bob", ["updatedAt": .timestamp(try Timestamp(seconds: 1, nanoseconds: 0))]),
        ]
        for data in invalid {
            let decision = try decide(write(.create, "users/bob", "bob", data))
            #expect(decision.message == "\nevaluation error at L10:24 for 'create' @ L10, false for 'create' @ L10")
        }
    }

    @Test func updatesAndDeletes() throws {
        let renamed = ProjectRulesTests.profile("alice", ["displayName": "Al"])
        #expect(try decide(ProjectRulesTests.write(.update, "users/alice", "alice", renamed)).allowed)
        let newEmail = ProjectRulesTests.profile("alice", ["email": "a@b.co"])
        #expect(
            try decide(ProjectRulesTests.write(.update, "users/alice", "alice", newEmail)).message
                == "\nevaluation error at L14:24 for 'update' @ L14, false for 'update' @ L14")
        #expect(
            try decide(ProjectRulesTests.write(.update, "users/alice", "bob", renamed)).message
                == "\nfalse for 'update' @ L14")
        var delete = Fixture.request(.delete, "users/alice", uid: "alice")
        delete.resource = ProjectRulesTests.stored
        #expect(try decide(delete).message == "\nfalse for 'delete' @ L18")
    }

    @Test func photoURLMustBeAnHTTPURL() throws {
        for url in ["https://example.com/a.png", "http://cdn.example.com/p?s=64"] {
            let data = ProjectRulesTests.profile("bob", ["photoURL": .string(url)])
            #expect(try decide(ProjectRulesTests.write(.create, "users/bob", "bob", data)).allowed, "\(url)")
        }
        for url in ["not a url", "ftp://example.com/a.png", "https://", "https://exa mple.com", ""] {
            let data = ProjectRulesTests.profile("bob", ["photoURL": .string(url)])
            #expect(!(try decide(ProjectRulesTests.write(.create, "users/bob", "bob", data)).allowed), "\(url)")
        }
    }

    /// The settings collection (Docs/specs/002): the owner alone reads and writes the four
    /// preference keys, each validated; backend-managed flags and deletes are refused.
    @Test func settings() throws {
        let stored = Fixture.document(
            "settings/alice", ["name": "Alice", "timezone": "Europe/Paris", "subscription_status": "active"])
        func decide(_ method: RulesMethod, _ uid: String?, _ data: MapValue?, path: String = "settings/alice") throws -> Bool {
            let ruleset = try #require(ProjectRulesTests.ruleset)
            var request = Fixture.request(method, path, uid: uid, newData: data)
            if method != .create { request.resource = stored }
            return ruleset.evaluate(request, lookup: InMemoryDocuments(before: [stored])).allowed
        }
        func updated(_ changes: MapValue) -> MapValue {
            var data = stored.fields
            for entry in changes { data[entry.key] = entry.value }
            return data
        }
        #expect(try decide(.get, "alice", nil))
        #expect(!(try decide(.get, "bob", nil)))
        #expect(!(try decide(.get, nil, nil)))
        let valid: MapValue = [
            "name": "Bob", "primary_sport": "Cycling", "morning_reminder_time": "06:30:00", "timezone": "America/New_York",
        ]
        #expect(try decide(.create, "bob", valid, path: "settings/bob"))
        #expect(!(try decide(.create, "alice", valid, path: "settings/bob")))
        #expect(!(try decide(.create, "bob", ["subscription_status": "active"], path: "settings/bob")))
        #expect(try decide(.update, "alice", updated(["primary_sport": "Rest", "morning_reminder_time": "23:59:59"])))
        #expect(!(try decide(.update, "bob", updated(["primary_sport": "Rest"]))))
        #expect(!(try decide(.update, "alice", updated(["subscription_status": "free"]))))
        #expect(!(try decide(.update, "alice", updated(["whoop_connected": true]))))
        for invalid: MapValue in [
            ["primary_sport": "Chess"], ["morning_reminder_time": "24:00:00"], ["morning_reminder_time": "6:30"],
            ["timezone": "Not a zone"], ["name": ""], ["name": 7],
        ] {
            #expect(!(try decide(.update, "alice", updated(invalid))), "\(invalid)")
        }
        #expect(!(try decide(.delete, "alice", nil)))
    }

    /// The create decision the performance target is about stays allowed under the
    /// benchmark's own request.
    @Test func benchmarkRequestIsAllowed() throws {
        let ruleset = try #require(ProjectRulesTests.ruleset)
        #expect(ruleset.evaluate(try RulesBenchmark.profileCreateRequest()).allowed)
    }
}
