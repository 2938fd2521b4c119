import Foundation
import Hearth
import HearthPersistence
import Synchronization
import Testing

/// The client's local view (issue #14): writes reach this instance's listeners before the
/// server answers, pending values follow Firestore's transforms and server-timestamp
/// behaviours, rejected writes leave the views, and the network can be switched off and on.
/// Each runs on the embedded store and on a server over gRPC.
@Suite("Latency compensation")
struct LatencyCompensationTests {
    @Test(arguments: BackendKind.allCases)
    func aWriteReachesListenersBeforeTheServerAcknowledgesIt(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("rooms/r1")
            let snapshots = SnapshotCollector<DocumentSnapshot>()
            let registration = ref.addSnapshotListener(includeMetadataChanges: true) { snapshot, _ in
                if let snapshot { snapshots.add(snapshot) }
            }
            defer { registration.remove() }
            let first = try await snapshots.next()
            #expect(!first.exists)

            await test.db.disableNetwork()
            let write = Task { try await ref.setData(["n": 1]) }
            let pending = try await snapshots.next { $0.exists }
            #expect(pending.get("n") as? Int == 1 && pending.metadata.hasPendingWrites && pending.metadata.isFromCache)
            #expect(try test.store.documentCount(in: TestDatabase.database) == 0, "nothing sent while offline")

            await test.db.enableNetwork()
            try await write.value
            let acknowledged = try await snapshots.next { !$0.metadata.hasPendingWrites && !$0.metadata.isFromCache }
            #expect(acknowledged.get("n") as? Int == 1)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func pendingTransformsAndServerTimestampsApplyLocally(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("stats/s")
            let before = try Timestamp(seconds: 1_000, nanoseconds: 0)
            try await ref.setData(["n": 1, "tags": ["a"], "t": before])
            await test.db.disableNetwork()
            let write = Task {
                try await ref.updateData([
                    "n": FieldValue.increment(Int64(2)), "tags": FieldValue.arrayUnion(["b"]),
                    "t": FieldValue.serverTimestamp(),
                ])
            }
            let local = try await eventually { try await ref.getDocument(source: .cache) } until: { $0.metadata.hasPendingWrites }
            #expect(local.get("n") as? Int == 3)
            #expect(local.get("tags") as? [String] == ["a", "b"])
            #expect(local.get("t") is NSNull, "a pending server timestamp reads as null by default")
            #expect(local.data(with: .previous)?["t"] as? Timestamp == before)
            let estimate = try #require(local.data(with: .estimate)?["t"] as? Timestamp)
            #expect(abs(estimate.dateValue.timeIntervalSinceNow) < 60)
            // A query over the cache sees the pending values too.
            let matching = try await test.db.collection("stats").whereField("n", isGreaterThan: 2).getDocuments(source: .cache)
            #expect(matching.documents.map(\.documentID) == ["s"] && matching.metadata.hasPendingWrites)

            await test.db.enableNetwork()
            try await write.value
            let stored = try await ref.getDocument()
            #expect(!stored.metadata.hasPendingWrites && stored.get("n") as? Int == 3)
            #expect((stored.get("t") as? Timestamp).map { $0 > before } == true)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func aRejectedWriteLeavesTheViewsAndReachesItsCaller(_ kind: BackendKind) async throws {
        let rules = """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /locked/{id} { allow read: if true; allow write: if false; }
              }
            }
            """
        try await TestDatabase.with(kind, rules: rules) { test in
            let user = test.as(.user(uid: "u1"))
            let snapshots = SnapshotCollector<QuerySnapshot>()
            let registration = user.collection("locked").addSnapshotListener { snapshot, _ in
                if let snapshot { snapshots.add(snapshot) }
            }
            defer { registration.remove() }
            #expect(try await snapshots.next().isEmpty)

            await user.disableNetwork()
            let awaited = Task { try await user.document("locked/a").setData(["v": 1]) }
            let shown = try await snapshots.next { !$0.isEmpty }
            #expect(shown.metadata.hasPendingWrites && shown.documents.map(\.documentID) == ["a"])

            // A second write whose caller stops waiting: the failure goes to the listener.
            let failures = SnapshotCollector<WriteFailure>()
            let failureRegistration = user.addWriteFailureListener { failures.add($0) }
            defer { failureRegistration.remove() }
            let abandoned = Task { try await user.document("locked/b").setData(["v": 2]) }
            _ = try await snapshots.next { $0.count == 2 }
            abandoned.cancel()

            await user.enableNetwork()
            let error = await expectError(.permissionDenied) { try await awaited.value }
            #expect(error != nil)
            let failure = try await failures.next()
            #expect(failure.documentPaths == ["locked/b"] && failure.error.code == .permissionDenied)
            let rolledBack = try await snapshots.next { $0.isEmpty }
            #expect(!rolledBack.metadata.hasPendingWrites)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func aDocumentDeletedWhileOfflineLeavesTheViewOnReconnect(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let client = test.as(.admin)
            try await client.document("rooms/a").setData(["open": true])
            try await client.document("rooms/b").setData(["open": true])
            let snapshots = SnapshotCollector<QuerySnapshot>()
            let rooms = client.collection("rooms").whereField("open", isEqualTo: true)
            let registration = rooms.addSnapshotListener(includeMetadataChanges: true) { snapshot, _ in
                if let snapshot { snapshots.add(snapshot) }
            }
            defer { registration.remove() }
            _ = try await snapshots.next { $0.count == 2 && !$0.metadata.isFromCache }

            await client.disableNetwork()
            try await test.db.document("rooms/a").delete()  // another instance, while this one is away
            await client.enableNetwork()
            let after = try await snapshots.next { $0.count == 1 }
            #expect(after.documents.map(\.documentID) == ["b"])
            #expect(after.documentChanges.map(\.type) == [.removed] && !after.metadata.isFromCache)
            // The cache forgot it too.
            let cached = try await client.collection("rooms").getDocuments(source: .cache)
            #expect(cached.documents.map(\.documentID) == ["b"])
        }
    }

    @Test(arguments: BackendKind.allCases)
    func offlineReadsAnswerFromTheCacheAndTransactionsFail(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("users/alice")
            try await ref.setData(["name": "Alice"])
            await test.db.disableNetwork()
            let cached = try await ref.getDocument()
            #expect(cached.metadata.isFromCache && cached.get("name") as? String == "Alice")
            await expectError(.unavailable) { _ = try await test.db.document("users/unseen").getDocument() }
            await expectError(.unavailable) { _ = try await ref.getDocument(source: .server) }
            await expectError(.unavailable) {
                try await test.db.runTransaction { transaction in _ = try await transaction.getDocument(ref) }
            }
            await test.db.enableNetwork()
            let fresh = try await ref.getDocument()
            #expect(!fresh.metadata.isFromCache)
        }
    }

    @Test func aPersistentCacheKeepsQueuedWritesForTheNextInstance() async throws {
        try await TestDatabase.with(.remote) { test in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            var settings = FirestoreSettings()
            settings.cacheSettings = PersistentCacheSettings(path: folder.path)
            let address = try #require(test.serverAddress)
            let first = try Firestore.remote(
                host: address.host, port: address.port, projectID: TestDatabase.project, settings: settings)
            await expectError(.failedPrecondition) {
                _ = try Firestore.remote(host: address.host, port: address.port, projectID: TestDatabase.project, settings: settings)
            }
            try await first.document("users/seen").setData(["v": 0])
            await first.disableNetwork()
            let write = Task { try await first.document("users/queued").setData(["v": 1]) }
            _ = try await eventually { try? await first.document("users/queued").getDocument(source: .cache) } until: {
                $0?.exists == true
            }
            await first.terminate()
            await expectError(.unavailable) { try await write.value }

            // The next instance on the folder holds the queued write, and sends it.
            let second = try Firestore.remote(
                host: address.host, port: address.port, projectID: TestDatabase.project, settings: settings)
            let cached = try await second.document("users/queued").getDocument(source: .cache)
            #expect(cached.get("v") as? Int == 1)
            try await second.waitForPendingWrites()
            let stored = try await test.db.document("users/queued").getDocument(source: .server)
            #expect(stored.get("v") as? Int == 1)
            await expectError(.failedPrecondition) { try await second.clearPersistence() }
            await second.terminate()
            try await second.clearPersistence()
            #expect(!FileManager.default.fileExists(atPath: folder.path))
        }
    }
}

/// Collects values delivered by callbacks, for a test to wait on in order.
final class SnapshotCollector<Value: Sendable>: Sendable {
    /// The values not yet taken.
    private let values = Mutex<[Value]>([])

    func add(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// The next value that passes `accept` (skipping the others), within 180 seconds.
    func next(where accept: @escaping @Sendable (Value) -> Bool = { _ in true }) async throws -> Value {
        try await eventually {
            self.values.withLock { values -> Value? in
                while !values.isEmpty {
                    let value = values.removeFirst()
                    if accept(value) { return value }
                }
                return nil
            }
        } until: { $0 != nil }!
    }
}

/// `body`'s value once `done` holds for it, polling for up to 180 seconds (the whole suite runs
/// in parallel on 2 cores, so a loaded machine can starve a poll for a minute).
func eventually<T: Sendable>(
    _ body: @escaping @Sendable () async throws -> T, until done: @escaping @Sendable (T) -> Bool
) async throws -> T {
    let deadline = ContinuousClock.now + .seconds(180)
    while true {
        let value = try await body()
        if done(value) { return value }
        guard ContinuousClock.now < deadline else { throw TimedOut() }
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct TimedOut: Error {}
