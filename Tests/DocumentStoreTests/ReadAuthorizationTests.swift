import DocumentModel
import DocumentStore
import SecurityRules
import Testing

/// `authorizeReads(_:documents:as:)` judges documents already read, whatever their read time:
/// a store never written, or idle for longer than the retention window, still answers users.
@Suite struct ReadAuthorizationTests {
    static let rules = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /users/{userId} {
              allow get: if request.auth != null && request.auth.uid == userId;
            }
          }
        }
        """

    func fixture() throws -> StoreFixture {
        let fixture = try StoreFixture(retentionSeconds: 60)
        fixture.store.setRules(try Ruleset(source: ReadAuthorizationTests.rules), project: fixture.database.project)
        return fixture
    }

    @Test("a store never written: the owner's read is allowed, another user's denied")
    func neverWritten() throws {
        let fixture = try fixture()
        let alice = try fixture.name("users/alice")
        let (_, documents) = try fixture.store.documents([alice])
        try fixture.store.authorizeReads([alice], documents: documents, as: .user(RulesAuth(uid: "alice")))
        let denied = #expect(throws: FirestoreError.self) {
            try fixture.store.authorizeReads([alice], documents: documents, as: .user(RulesAuth(uid: "bob")))
        }
        #expect(denied?.code == .permissionDenied)
        #expect(denied?.message.contains("L5") == true)
    }

    @Test("a store idle past the retention window: its latest read is judged like any other")
    func idlePastRetention() throws {
        let fixture = try fixture()
        let alice = try fixture.name("users/alice")
        try fixture.store.commit([.create(alice, fields: ["name": "Alice"])])
        fixture.clock.advance(bySeconds: 3600)
        let (_, documents) = try fixture.store.documents([alice])
        #expect(documents[0]?.fields == ["name": "Alice"])
        try fixture.store.authorizeReads([alice], documents: documents, as: .user(RulesAuth(uid: "alice")))
        try fixture.store.authorizeReads([alice], documents: documents, as: .admin)
        #expect(throws: FirestoreError.self) {
            try fixture.store.authorizeReads([alice], documents: documents, as: .unauthenticated)
        }
    }
}
