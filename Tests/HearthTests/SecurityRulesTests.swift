import Hearth
import Testing

@Suite("Identities and security rules on both backends")
struct SecurityRulesTests {
    static let rules = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /users/{uid} {
              allow read: if request.auth != null;
              allow write: if request.auth != null && request.auth.uid == uid;
            }
            match /admin/{doc} {
              allow read: if request.auth.token.role == 'admin' && request.auth.token.sub == request.auth.uid;
            }
          }
        }
        """

    @Test(arguments: BackendKind.allCases)
    func rulesJudgeEachIdentity(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind, rules: SecurityRulesTests.rules) { test in
            let alice = test.as(.user(uid: "alice"))
            let bob = test.as(.user(uid: "bob"))
            let guest = test.as(.unauthenticated)
            #expect(alice.identity.uid == "alice" && guest.identity.uid == nil)

            try await alice.document("users/alice").setData(["name": "Alice"])
            await expectError(.permissionDenied) { try await bob.document("users/alice").updateData(["name": "Bob"]) }
            await expectError(.permissionDenied) { _ = try await guest.document("users/alice").getDocument() }
            await expectError(.permissionDenied) { _ = try await guest.collection("users").getDocuments() }
            await expectError(.permissionDenied) { _ = try await guest.collection("users").count.getAggregation(source: .server) }
            #expect(try await bob.document("users/alice").getDocument().get("name") as? String == "Alice")
            #expect(try await bob.collection("users").getDocuments().count == 1)

            let batch = alice.batch()
            batch.setData(["n": 1], forDocument: alice.document("users/alice"))
            batch.setData(["n": 1], forDocument: alice.document("users/bob"))
            await expectError(.permissionDenied) { try await batch.commit() }
            #expect(try await test.db.document("users/bob").getDocument().exists == false)

            await expectError(.permissionDenied) {
                try await bob.runTransaction { transaction in
                    _ = try await transaction.getDocument(bob.document("users/alice"))
                    transaction.updateData(["name": "Mallory"], forDocument: bob.document("users/alice"))
                }
            }
            await expectError(.permissionDenied) {
                try await guest.runTransaction { transaction in
                    _ = try await transaction.getDocument(guest.document("users/alice"))
                }
            }
            #expect(try await test.db.document("users/alice").getDocument().get("name") as? String == "Alice")
        }
    }

    @Test(arguments: BackendKind.allCases)
    func claimsReachTheRules(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind, rules: SecurityRulesTests.rules) { test in
            try await test.db.document("admin/settings").setData(["on": true])
            let admin = test.as(.user(uid: "root", claims: ["role": "admin", "level": 3, "groups": ["a"]]))
            let user = test.as(.user(uid: "joe", claims: ["role": "user"]))
            #expect(try await admin.document("admin/settings").getDocument().get("on") as? Bool == true)
            await expectError(.permissionDenied) { _ = try await user.document("admin/settings").getDocument() }
            // The admin identity bypasses rules.
            #expect(try await test.db.document("admin/settings").getDocument().exists)
        }
    }

    @Test func unsupportedClaimsAreReportedByTheFirstRequest() async throws {
        try await TestDatabase.with(.embedded) { test in
            let odd = test.as(.user(uid: "x", claims: ["bad": Counter()]))
            await expectError(.invalidArgument) { _ = try await odd.document("users/x").getDocument() }
        }
    }
}
