import Foundation
import Hearth
import HearthTesting
import Testing

/// The repository's `rules/firestore.rules`, case by case: every allow and every deny of the
/// `users` collection (Docs/specs/004) and the `settings` collection (Docs/specs/002), and the default
/// deny everywhere else. Each test gets its
/// own embedded environment; the coverage report of the whole suite is written to
/// `.build/rules-coverage` (firestore-coverage.json and .html).
@Suite("rules/firestore.rules")
struct FirestoreRulesTests {
    static let coverageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/rules-coverage")

    /// Runs `body` in a fresh environment with the repository's rules, where `users/alice`
    /// exists (created by the admin) unless `seeded` is false.
    private func withRules(
        _ kind: EnvironmentKind = .embedded, seeded: Bool = true, _ body: (RulesTestEnvironment) async throws -> Void
    ) async throws {
        try await withEnvironment(kind, coverageReportDirectory: FirestoreRulesTests.coverageDirectory) { environment in
            if seeded {
                try await environment.withSecurityRulesDisabled { admin in
                    try await admin.document("users/alice").setData(profile("alice"))
                }
            }
            try await body(environment)
        }
    }

    /// A valid profile for `uid`, timestamps set by the server.
    private func profile(_ uid: String, _ changes: [String: Any] = [:]) -> [String: Any] {
        var data: [String: Any] = [
            "uid": uid, "email": "\(uid)@example.com", "displayName": uid.capitalized,
            "createdAt": FieldValue.serverTimestamp(), "updatedAt": FieldValue.serverTimestamp(),
        ]
        for (key, value) in changes { data[key] = value }
        return data
    }

    private func db(_ environment: RulesTestEnvironment, _ uid: String?) -> Firestore {
        guard let uid else { return environment.unauthenticatedContext().firestore() }
        return environment.authenticatedContext(uid: uid).firestore()
    }

    // MARK: read

    @Test("A signed-in user reads any profile", arguments: EnvironmentKind.allCases)
    func signedInReads(_ kind: EnvironmentKind) async throws {
        try await withRules(kind) { environment in
            try await assertSucceeds { try await db(environment, "alice").document("users/alice").getDocument() }
            try await assertSucceeds { try await db(environment, "bob").document("users/alice").getDocument() }
            try await assertSucceeds { try await db(environment, "bob").document("users/nobody").getDocument() }
            let all = try await assertSucceeds { try await db(environment, "bob").collection("users").getDocuments() }
            #expect(all.count == 1)
        }
    }

    @Test("Nobody reads profiles without signing in", arguments: EnvironmentKind.allCases)
    func anonymousReadsDenied(_ kind: EnvironmentKind) async throws {
        try await withRules(kind) { environment in
            try await assertFails { try await db(environment, nil).document("users/alice").getDocument() }
            try await assertFails { try await db(environment, nil).collection("users").getDocuments() }
            try await assertFails { try await db(environment, nil).collection("users").whereField("uid", isEqualTo: "alice").getDocuments() }
        }
    }

    // MARK: create

    @Test("A user creates their own profile with server timestamps", arguments: EnvironmentKind.allCases)
    func ownerCreates(_ kind: EnvironmentKind) async throws {
        try await withRules(kind, seeded: false) { environment in
            try await assertSucceeds { try await db(environment, "alice").document("users/alice").setData(profile("alice")) }
            try await assertSucceeds { try await db(environment, "bob").document("users/bob").setData(profile("bob", ["photoURL": "https://example.com/b.png"])) }
            try await assertSucceeds { try await db(environment, "carol").document("users/carol").setData(profile("carol", ["photoURL": NSNull()])) }
            try await assertSucceeds { try await db(environment, "dan").document("users/dan").setData(profile("dan", ["displayName": String(repeating: "d", count: 50)])) }
        }
    }

    @Test("Nobody creates another user's profile, or one without signing in", arguments: EnvironmentKind.allCases)
    func othersCannotCreate(_ kind: EnvironmentKind) async throws {
        try await withRules(kind, seeded: false) { environment in
            try await assertFails { try await db(environment, "bob").document("users/alice").setData(profile("alice")) }
            try await assertFails { try await db(environment, nil).document("users/alice").setData(profile("alice")) }
        }
    }

    @Test("The uid field must be the document id")
    func uidMustMatch() async throws {
        try await withRules(seeded: false) { environment in
            try await assertFails { try await db(environment, "alice").document("users/alice").setData(profile("bob")) }
        }
    }

    @Test("createdAt and updatedAt must be the server's time on create")
    func createTimestamps() async throws {
        try await withRules(seeded: false) { environment in
            let alice = db(environment, "alice").document("users/alice")
            try await assertFails { try await alice.setData(profile("alice", ["createdAt": Timestamp()])) }
            try await assertFails { try await alice.setData(profile("alice", ["updatedAt": Timestamp()])) }
            try await assertFails { try await alice.setData(profile("alice", ["createdAt": "now"])) }
        }
    }

    @Test("A profile has exactly the spec's fields")
    func profileFields() async throws {
        try await withRules(seeded: false) { environment in
            let alice = db(environment, "alice").document("users/alice")
            for required in ["uid", "email", "displayName", "createdAt", "updatedAt"] {
                var data = profile("alice")
                data[required] = nil
                try await assertFails { try await alice.setData(data) }
            }
            try await assertFails { try await alice.setData(profile("alice", ["isAdmin": true])) }
        }
    }

    @Test("The email must be address-shaped", arguments: ["alice", "alice@example", "@example.com", "al ice@example.com", "a@b@c.com"])
    func invalidEmail(_ email: String) async throws {
        try await withRules(seeded: false) { environment in
            try await assertFails { try await db(environment, "alice").document("users/alice").setData(profile("alice", ["email": email])) }
        }
    }

    @Test("The email must be a string")
    func emailType() async throws {
        try await withRules(seeded: false) { environment in
            try await assertFails { try await db(environment, "alice").document("users/alice").setData(profile("alice", ["email": 42])) }
        }
    }

    @Test("The display name is a string of 1 to 50 characters")
    func displayName() async throws {
        try await withRules(seeded: false) { environment in
            let alice = db(environment, "alice").document("users/alice")
            try await assertFails { try await alice.setData(profile("alice", ["displayName": ""])) }
            try await assertFails { try await alice.setData(profile("alice", ["displayName": String(repeating: "a", count: 51)])) }
            try await assertFails { try await alice.setData(profile("alice", ["displayName": 7])) }
            try await assertSucceeds { try await alice.setData(profile("alice", ["displayName": "A"])) }
        }
    }

    @Test("photoURL, when present, is a string or null")
    func photoURLType() async throws {
        try await withRules(seeded: false) { environment in
            try await assertFails { try await db(environment, "alice").document("users/alice").setData(profile("alice", ["photoURL": 1])) }
            try await assertFails { try await db(environment, "alice").document("users/alice").setData(profile("alice", ["photoURL": ["url": "x"]])) }
        }
    }

    // MARK: update

    @Test("A user updates their own displayName and photoURL with a server updatedAt", arguments: EnvironmentKind.allCases)
    func ownerUpdates(_ kind: EnvironmentKind) async throws {
        try await withRules(kind) { environment in
            let alice = db(environment, "alice").document("users/alice")
            try await assertSucceeds { try await alice.updateData(["displayName": "Alice L.", "updatedAt": FieldValue.serverTimestamp()]) }
            try await assertSucceeds { try await alice.updateData(["photoURL": "https://example.com/a.png", "updatedAt": FieldValue.serverTimestamp()]) }
            try await assertSucceeds { try await alice.updateData(["photoURL": NSNull(), "updatedAt": FieldValue.serverTimestamp()]) }
            try await assertSucceeds { try await alice.updateData(["photoURL": FieldValue.delete(), "updatedAt": FieldValue.serverTimestamp()]) }
        }
    }

    @Test("Nobody updates another user's profile, or one without signing in", arguments: EnvironmentKind.allCases)
    func othersCannotUpdate(_ kind: EnvironmentKind) async throws {
        try await withRules(kind) { environment in
            let change: [String: Any] = ["displayName": "Mallory", "updatedAt": FieldValue.serverTimestamp()]
            try await assertFails { try await db(environment, "bob").document("users/alice").updateData(change) }
            try await assertFails { try await db(environment, nil).document("users/alice").updateData(change) }
            try await assertFails { try await db(environment, "bob").document("users/alice").setData(profile("alice")) }
        }
    }

    @Test("uid, email and createdAt never change", arguments: ["uid", "email", "createdAt"])
    func fixedFields(_ field: String) async throws {
        try await withRules { environment in
            let values: [String: Any] = ["uid": "alice2", "email": "new@example.com", "createdAt": FieldValue.serverTimestamp()]
            try await assertFails { try await db(environment, "alice").document("users/alice")
                    .updateData([field: values[field]!, "updatedAt": FieldValue.serverTimestamp()]) }
        }
    }

    @Test("An update must set updatedAt to the server's time")
    func updateTimestamp() async throws {
        try await withRules { environment in
            let alice = db(environment, "alice").document("users/alice")
            try await assertFails { try await alice.updateData(["displayName": "Alice L."]) }
            try await assertFails { try await alice.updateData(["displayName": "Alice L.", "updatedAt": Timestamp()]) }
        }
    }

    @Test("An update keeps the profile valid")
    func updateKeepsProfileValid() async throws {
        try await withRules { environment in
            let alice = db(environment, "alice").document("users/alice")
            let now = FieldValue.serverTimestamp()
            try await assertFails { try await alice.updateData(["displayName": "", "updatedAt": now]) }
            try await assertFails { try await alice.updateData(["displayName": String(repeating: "a", count: 51), "updatedAt": now]) }
            try await assertFails { try await alice.updateData(["photoURL": 3, "updatedAt": now]) }
            try await assertFails { try await alice.updateData(["nickname": "Al", "updatedAt": now]) }
            try await assertFails { try await alice.updateData(["email": FieldValue.delete(), "updatedAt": now]) }
        }
    }

    // MARK: delete

    @Test("Nobody deletes a profile from a client; the admin can", arguments: EnvironmentKind.allCases)
    func deleteDenied(_ kind: EnvironmentKind) async throws {
        try await withRules(kind) { environment in
            try await assertFails { try await db(environment, "alice").document("users/alice").delete() }
            try await assertFails { try await db(environment, "bob").document("users/alice").delete() }
            try await assertFails { try await db(environment, nil).document("users/alice").delete() }
            try await environment.withSecurityRulesDisabled { admin in
                try await assertSucceeds { try await admin.document("users/alice").delete() }
            }
        }
    }

    // MARK: settings

    @Test("Settings: only the owner reads and writes the four preference keys, validated", arguments: EnvironmentKind.allCases)
    func settings(_ kind: EnvironmentKind) async throws {
        try await withRules(kind, seeded: false) { environment in
            try await environment.withSecurityRulesDisabled { admin in
                try await admin.document("settings/alice").setData(["name": "Alice", "subscription_status": "active"])
            }
            let alice = db(environment, "alice").document("settings/alice")
            try await assertSucceeds { try await alice.getDocument() }
            try await assertFails { try await db(environment, "bob").document("settings/alice").getDocument() }
            try await assertFails { try await db(environment, nil).document("settings/alice").getDocument() }
            try await assertSucceeds {
                try await alice.updateData(["primary_sport": "Running", "morning_reminder_time": "07:15:00", "timezone": "Europe/Paris"])
            }
            try await assertFails { try await alice.updateData(["subscription_status": "free"]) }
            try await assertFails { try await alice.updateData(["primary_sport": "Chess"]) }
            try await assertFails { try await alice.updateData(["morning_reminder_time": "7:15"]) }
            try await assertFails { try await db(environment, "bob").document("settings/alice").updateData(["name": "Bob"]) }
            try await assertSucceeds { try await db(environment, "bob").document("settings/bob").setData(["name": "Bob"]) }
            try await assertFails { try await db(environment, "bob").document("settings/carol").setData(["name": "Bob"]) }
            try await assertFails { try await alice.delete() }
        }
    }

    // MARK: everything else

    @Test("Every other path is closed, subcollections of profiles included", arguments: ["posts/p1", "users/alice/private/settings", "settings/alice/devices/d1", "chats/c1/messages/m1"])
    func otherPathsDenied(_ path: String) async throws {
        try await withRules { environment in
            let alice = db(environment, "alice")
            try await assertFails { try await alice.document(path).getDocument() }
            try await assertFails { try await alice.document(path).setData(["uid": "alice"]) }
            try await assertFails { try await alice.document(path).delete() }
            let parent = String(path[..<path.lastIndex(of: "/")!])
            try await assertFails { try await alice.collection(parent).getDocuments() }
        }
    }
}
