import DocumentModel
import DocumentStore
import SecurityRules
import Testing

/// The store is the one owner of which rules apply to a project: its own rules, else the default
/// rules (the server's rules file), else none.
@Suite struct ProjectRulesetsTests {
    /// Rules that allow a signed-in user to read `collection` and nothing else, counting coverage.
    static func rules(allowing collection: String) throws -> Ruleset {
        try Ruleset(
            source: """
                rules_version = '2';
                service cloud.firestore {
                  match /databases/{database}/documents {
                    match /\(collection)/{id} {
                      allow read: if request.auth != null;
                    }
                  }
                }
                """, options: .init(recordsCoverage: true))
    }

    let fixture: StoreFixture
    let user = RequestIdentity.user(RulesAuth(uid: "alice"))

    init() throws {
        fixture = try StoreFixture()
    }

    /// Whether `user` may read `path` in `project`.
    func allowed(_ path: String, project: String) throws -> Bool {
        let name = try DocumentName(try DatabaseID(project: project), path)
        do {
            _ = try fixture.store.document(name, as: user)
            return true
        } catch let error as FirestoreError where error.code == .permissionDenied {
            return false
        }
    }

    @Test func defaultRulesApplyToEveryProjectWithoutItsOwn() throws {
        let store = fixture.store
        #expect(try allowed("a/x", project: "p1"), "no rules: open")
        store.setDefaultRules(try ProjectRulesetsTests.rules(allowing: "a"))
        #expect(try allowed("a/x", project: "p1"))
        #expect(try !allowed("b/x", project: "p1"))
        #expect(try !allowed("b/x", project: "p2"))

        store.setRules(try ProjectRulesetsTests.rules(allowing: "b"), project: "p2")
        #expect(store.hasOwnRules(project: "p2"))
        #expect(!store.hasOwnRules(project: "p1"))
        #expect(try allowed("b/x", project: "p2"), "a project's own rules replace the default")
        #expect(try !allowed("a/x", project: "p2"))
        #expect(try !allowed("b/x", project: "p1"), "other projects keep the default")

        // The default replaced (the server's rules file reloaded): every project without its own
        // follows, the others keep theirs.
        store.setDefaultRules(try ProjectRulesetsTests.rules(allowing: "c"))
        #expect(try allowed("c/x", project: "p1"))
        #expect(try !allowed("a/x", project: "p1"))
        #expect(try allowed("b/x", project: "p2"))
        #expect(try !allowed("c/x", project: "p2"))

        store.setRules(nil, project: "p2")
        #expect(try allowed("c/x", project: "p2"), "without its own rules, a project has the default again")
        store.setDefaultRules(nil)
        #expect(try allowed("b/x", project: "p1"), "neither: open")
        #expect(store.rules(project: "p1") == nil)
    }

    @Test func theAdminIsNeverJudged() throws {
        let store = fixture.store
        store.setDefaultRules(try ProjectRulesetsTests.rules(allowing: "a"))
        store.setRules(try ProjectRulesetsTests.rules(allowing: "a"), project: fixture.database.project)
        let name = try fixture.name("b/x")
        try store.commit([.set(name, fields: ["n": 1])])
        #expect(try store.document(name)?.fields == ["n": 1])
        #expect(try store.document(try DocumentName(try DatabaseID(project: "other"), "b/x")) == nil)
    }

    @Test func eachProjectCountsItsOwnCoverage() throws {
        let store = fixture.store
        let defaults = try ProjectRulesetsTests.rules(allowing: "a")
        store.setDefaultRules(defaults)
        #expect(store.projectsWithRules.isEmpty)
        _ = try allowed("a/x", project: "p1")
        _ = try allowed("a/x", project: "p1")
        _ = try allowed("a/x", project: "p2")
        let p1 = try #require(store.rules(project: "p1"))
        let p2 = try #require(store.rules(project: "p2"))
        #expect(p1 !== p2 && p1 !== defaults, "a copy of the default rules per project")
        #expect(p1.source == defaults.source)
        #expect(store.rules(project: "p1") === p1, "compiled once per project")
        #expect(p1.coverage?.jsonReport().contains(#""count":2"#) == true, "\(p1.coverage?.jsonReport() ?? "")")
        #expect(p2.coverage?.jsonReport().contains(#""count":1"#) == true)
        #expect(p2.coverage?.jsonReport().contains(#""count":2"#) == false)
        #expect(store.projectsWithRules == ["p1", "p2"])

        store.setDefaultRules(try ProjectRulesetsTests.rules(allowing: "b"))
        #expect(store.projectsWithRules == ["p1", "p2"], "projects stay listed when the default rules change")
        #expect(store.rules(project: "p1")?.source.contains("/b/{id}") == true)
        #expect(store.rules(project: "p1") !== p1)

        let shared = try Ruleset(source: defaults.source)
        store.setDefaultRules(shared)
        #expect(store.rules(project: "p3") === shared, "rules without coverage are shared, not compiled again")
        store.setDefaultRules(nil)
        #expect(store.projectsWithRules.isEmpty)
    }
}
