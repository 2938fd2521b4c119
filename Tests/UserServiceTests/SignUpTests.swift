import Foundation
import Hearth
import HearthTesting
import Testing
import UserService

@Suite("Sign-up and the profile it creates")
struct SignUpTests {
    @Test("Sign-up creates users/{uid} as the new user", arguments: BackendKind.allCases)
    func signUpCreatesTheProfile(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let auth = AuthenticationService(firestore: environment.unauthenticatedContext().firestore())
            let session = try await auth.signUp(email: "alice@example.com", password: "secret1")

            #expect(session.uid.count == 28)
            #expect(session.identity.uid == session.uid)
            let stored = try await environment.withSecurityRulesDisabled { admin in
                try await admin.document("users/\(session.uid)").getDocument()
            }
            #expect(stored.exists)
            #expect(stored["uid"] as? String == session.uid)
            #expect(stored["email"] as? String == "alice@example.com")
            #expect(stored["displayName"] as? String == "alice")
            #expect(stored["photoURL"] == nil)
            let createdAt = try #require(stored["createdAt"] as? Timestamp)
            #expect(stored["updatedAt"] as? Timestamp == createdAt)
            #expect(stored.updateTime == createdAt)
            #expect(session.user.id == session.uid)
            #expect(session.user.createdAt == createdAt.dateValue)
        }
    }

    @Test("Sign-up with invalid data throws before anything is written", arguments: BackendKind.allCases)
    func invalidSignUp(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let auth = AuthenticationService(firestore: environment.unauthenticatedContext().firestore())
            await expectServiceError("invalidEmail") { _ = try await auth.signUp(email: "alice", password: "secret1") }
            await expectServiceError("validationFailed") {
                _ = try await auth.signUp(email: "alice@example.com", password: "12345")
            }
            await expectServiceError("validationFailed") {
                _ = try await auth.signUp(
                    email: "alice@example.com", password: "secret1", displayName: String(repeating: "a", count: 51))
            }
            let count = try await environment.withSecurityRulesDisabled { admin in
                try await admin.collection("users").getDocuments().count
            }
            #expect(count == 0)
        }
    }

    @Test("An email signs up once; sign-in returns the same uid and profile")
    func signUpOnceThenSignIn() async throws {
        try await withProfileDatabase(.embedded) { environment in
            let auth = AuthenticationService(firestore: environment.unauthenticatedContext().firestore())
            let first = try await auth.signUp(email: "bob@example.com", password: "hunter22", displayName: "Bob")
            await expectServiceError("validationFailed") {
                _ = try await auth.signUp(email: "Bob@example.com", password: "another1")
            }
            let again = try await auth.signIn(email: "bob@example.com", password: "hunter22")
            #expect(again.uid == first.uid)
            #expect(again.user == first.user)
            await expectServiceError("validationFailed") {
                _ = try await auth.signIn(email: "bob@example.com", password: "wrong-password")
            }
        }
    }
}

/// Expects `body` to throw the `UserServiceError` case named `caseName`.
func expectServiceError(
    _ caseName: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("Expected \(caseName), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as UserServiceError {
        let name = String(describing: error).prefix { $0 != "(" }
        #expect(name == caseName, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("Expected UserServiceError.\(caseName), got \(error)", sourceLocation: sourceLocation)
    }
}
