import Foundation
import Hearth
import HearthTesting
import Testing
import UserService

@Suite("UserService")
struct UserServiceTests {
    /// Alice's service, with her profile created.
    private func alice(in environment: RulesTestEnvironment) async throws -> (UserService, User) {
        let users = UserService(firestore: environment.authenticatedContext(uid: "alice").firestore())
        let user = try await users.createUser(id: "alice", email: "alice@example.com", displayName: "Alice")
        return (users, user)
    }

    @Test("getUser returns the user, or throws userNotFound", arguments: BackendKind.allCases)
    func getUser(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let (_, created) = try await alice(in: environment)
            let bob = UserService(firestore: environment.authenticatedContext(uid: "bob").firestore())
            let read = try await bob.getUser(id: "alice")
            #expect(read == created)
            #expect(read.email == "alice@example.com" && read.displayName == "Alice" && read.photoURL == nil)
            #expect(read.createdAt != nil && read.createdAt == read.updatedAt)
            await expectServiceError("userNotFound") { _ = try await bob.getUser(id: "carol") }
            await expectServiceError("invalidUserID") { _ = try await bob.getUser(id: "") }
        }
    }

    @Test("An update notifies observeUser", arguments: BackendKind.allCases)
    func updateNotifiesObserver(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let (users, created) = try await alice(in: environment)
            let bob = UserService(firestore: environment.authenticatedContext(uid: "bob").firestore())
            let (deliveries, continuation) = AsyncStream<Result<User, any Error>>.makeStream()
            let registration = bob.observeUser(id: "alice") { continuation.yield($0) }
            defer { registration.remove() }
            var iterator = deliveries.makeAsyncIterator()
            let first = try await iterator.next()?.get()
            #expect(first == created)

            try await users.updateUser(id: "alice", data: ["displayName": "Alice L.", "photoURL": "https://example.com/a.png"])
            let updated = try #require(try await iterator.next()?.get())
            #expect(updated.displayName == "Alice L.")
            #expect(updated.photoURL == "https://example.com/a.png")
            #expect(updated.createdAt == created.createdAt)
            let createdAt = try #require(created.updatedAt)
            let updatedAt = try #require(updated.updatedAt)
            #expect(updatedAt > createdAt)
            // The delivered profile refreshed the observer's cache.
            #expect(try await bob.getUser(id: "alice") == updated)
        }
    }

    @Test("observeUser reports a missing profile as userNotFound, then the profile once created")
    func observeMissingProfile() async throws {
        try await withProfileDatabase(.embedded) { environment in
            let bob = UserService(firestore: environment.authenticatedContext(uid: "bob").firestore())
            let (deliveries, continuation) = AsyncStream<Result<User, any Error>>.makeStream()
            let registration = bob.observeUser(id: "alice") { continuation.yield($0) }
            defer { registration.remove() }
            var iterator = deliveries.makeAsyncIterator()
            await expectServiceError("userNotFound") { _ = try await iterator.next()?.get() }
            let (_, created) = try await alice(in: environment)
            let delivered = try await iterator.next()?.get()
            #expect(delivered == created)
        }
    }

    @Test("Invalid data throws validationFailed and writes nothing", arguments: BackendKind.allCases)
    func invalidDataWritesNothing(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let users = UserService(firestore: environment.authenticatedContext(uid: "alice").firestore())
            await expectServiceError("validationFailed") {
                _ = try await users.createUser(id: "alice", email: "alice@example.com", displayName: "")
            }
            await expectServiceError("validationFailed") {
                _ = try await users.createUser(
                    id: "alice", email: "alice@example.com", displayName: String(repeating: "é", count: 51))
            }
            await expectServiceError("validationFailed") {
                _ = try await users.createUser(
                    id: "alice", email: "alice@example.com", displayName: "Alice", photoURL: "not a url")
            }
            await expectServiceError("invalidEmail") {
                _ = try await users.createUser(id: "alice", email: "alice@example", displayName: "Alice")
            }
            await expectServiceError("invalidUserID") {
                _ = try await users.createUser(id: "", email: "alice@example.com", displayName: "Alice")
            }
            let written = try await environment.withSecurityRulesDisabled { admin in
                try await admin.collection("users").getDocuments().count
            }
            #expect(written == 0)

            let created = try await users.createUser(id: "alice", email: "alice@example.com", displayName: "Alice")
            let invalidUpdates: [[String: Any]] = [
                ["displayName": ""], ["displayName": String(repeating: "x", count: 51)], ["displayName": 42],
                ["email": "mallory@example.com"], ["displayName": "Ok", "createdAt": Timestamp()],
                ["photoURL": "ftp://example.com/a.png"], [:],
            ]
            for data in invalidUpdates {
                await expectServiceError("validationFailed") { try await users.updateUser(id: "alice", data: data) }
            }
            users.clearCache()
            #expect(try await users.getUser(id: "alice") == created)
        }
    }

    @Test("A user can update only their own document", arguments: BackendKind.allCases)
    func updateOnlyOwnDocument(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let (users, _) = try await alice(in: environment)
            let bob = UserService(firestore: environment.authenticatedContext(uid: "bob").firestore())
            try await assertFails { try await bob.updateUser(id: "alice", data: ["displayName": "Mallory"]) }
            try await assertFails { try await bob.createUser(id: "alice", email: "mallory@example.com", displayName: "Mallory") }
            try await assertSucceeds { try await users.updateUser(id: "alice", data: ["displayName": "Alice L."]) }
            let anonymous = UserService(firestore: environment.unauthenticatedContext().firestore())
            try await assertFails { try await anonymous.getUser(id: "alice") }
            #expect(try await bob.getUser(id: "alice").displayName == "Alice L.")
        }
    }

    @Test("Updating a missing profile throws userNotFound")
    func updateMissingProfile() async throws {
        try await withProfileDatabase(.embedded) { environment in
            try await environment.withSecurityRulesDisabled { admin in
                await expectServiceError("userNotFound") {
                    try await UserService(firestore: admin).updateUser(id: "nobody", data: ["displayName": "X"])
                }
            }
        }
    }

    @Test("getUser answers from the cache until clearCache or an update", arguments: BackendKind.allCases)
    func cache(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let (users, created) = try await alice(in: environment)
            try await environment.withSecurityRulesDisabled { admin in
                try await admin.document("users/alice").updateData(["displayName": "Changed elsewhere"])
            }
            #expect(try await users.getUser(id: "alice") == created)
            users.clearCache()
            #expect(try await users.getUser(id: "alice").displayName == "Changed elsewhere")

            try await users.updateUser(id: "alice", data: ["photoURL": "http://example.com/p.jpg"])
            let afterUpdate = try await users.getUser(id: "alice")
            #expect(afterUpdate.photoURL == "http://example.com/p.jpg")
            try await users.updateUser(id: "alice", data: ["photoURL": NSNull()])
            #expect(try await users.getUser(id: "alice").photoURL == nil)
        }
    }

    @Test("getUsers returns the existing profiles in order, leaving out missing and invalid ids", arguments: BackendKind.allCases)
    func getUsers(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let (_, alice) = try await alice(in: environment)
            let bobService = UserService(firestore: environment.authenticatedContext(uid: "bob").firestore())
            let bob = try await bobService.createUser(id: "bob", email: "bob@example.com", displayName: "Bob")
            bobService.clearCache()
            let found = try await bobService.getUsers(ids: ["bob", "", "nobody", "alice", "a/b", "bob"])
            #expect(found == [bob, alice, bob])
            let anonymous = UserService(firestore: environment.unauthenticatedContext().firestore())
            await expectServiceError("fetchFailed") { _ = try await anonymous.getUsers(ids: ["alice"]) }
        }
    }
}
