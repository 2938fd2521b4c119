import Foundation
import Hearth
import HearthTesting
import Testing
import UserService

/// UserService on the offline-first client (issue 14): profiles read from the cache while the
/// server is away, updates shown at once and queued, validation that writes nothing anywhere.
@Suite("UserService offline")
struct OfflineUserServiceTests {
    @Test("Offline, getUser answers from the cache and updateUser is queued and observed at once", arguments: BackendKind.allCases)
    func offlineProfile(_ kind: BackendKind) async throws {
        try await withProfileDatabase(kind) { environment in
            let db = environment.authenticatedContext(uid: "alice").firestore()
            let users = UserService(firestore: db)
            try await users.createUser(id: "alice", email: "alice@example.com", displayName: "Alice")
            users.clearCache()   // the service's own memory: the reads below come from the client's cache

            await db.disableNetwork()
            let clock = ContinuousClock()
            let start = clock.now
            let cached = try await users.getUser(id: "alice")
            let elapsed = clock.now - start
            #expect(cached.displayName == "Alice")
            #expect(elapsed < .milliseconds(50), "getUser from the cache took \(elapsed)")

            let (deliveries, continuation) = AsyncStream<User>.makeStream()
            let registration = users.observeUser(id: "alice") { result in
                if let user = try? result.get() { continuation.yield(user) }
            }
            defer { registration.remove() }
            var iterator = deliveries.makeAsyncIterator()
            #expect(await iterator.next()?.displayName == "Alice")

            let update = Task { try await users.updateUser(id: "alice", data: ["displayName": "Alice L."]) }
            let shown = await iterator.next()
            #expect(shown?.displayName == "Alice L.", "the pending update reaches the observer before the server")
            #expect(shown?.updatedAt != nil, "the pending server timestamp shows its estimate")

            // Invalid data: nothing queued, nothing shown.
            await expectServiceError("validationFailed") { try await users.updateUser(id: "alice", data: ["email": "x@y.z"]) }
            let local = try await db.document("users/alice").getDocument(source: .cache)
            #expect(local.get("email") as? String == "alice@example.com")

            await db.enableNetwork()
            try await update.value
            try await db.waitForPendingWrites()
            let stored = try await environment.withSecurityRulesDisabled { admin in
                try await admin.document("users/alice").getDocument(source: .server).get("displayName") as? String
            }
            #expect(stored == "Alice L.")
        }
    }
}
