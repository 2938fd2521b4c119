import DocumentModel
import DocumentStore
@testable import Hearth
import Testing

/// The sync engine's mutation queue (#14): a document's overlay, kept up to date as batches are
/// queued, equals the one computed afresh from its cache entry and every pending write, through
/// random queues, acknowledgements, rejections and cache changes.
@Suite("Pending writes")
struct PendingWritesTests {
    static let names = ["rooms/a", "rooms/b", "rooms/c"].map { try! LocalStoreTests.name($0) }
    static let n = try! DocumentModel.FieldPath("n")
    static let tags = try! DocumentModel.FieldPath("tags")
    static let at = try! DocumentModel.FieldPath("at")

    /// One random write of every kind the SDK makes: set, merge, update, delete, and each with
    /// the transforms that read the value before them (increment, array union, server time).
    static func randomWrite(_ random: inout SeededRandom) -> Write {
        let name = names[random.int(below: names.count)]
        let value = Value.integer(Int64(random.int(below: 5)))
        let transforms: [FieldTransform] =
            switch random.int(below: 4) {
            case 0: [FieldTransform(n, .increment(.integer(1)))]
            case 1: [FieldTransform(tags, .appendMissingElements([value]))]
            case 2: [FieldTransform(at, .serverTimestamp)]
            default: []
            }
        switch random.int(below: 4) {
        case 0: return .set(name, fields: ["n": value, "kept": .string("x")], transforms: transforms)
        case 1: return .setMerge(name, fields: ["n": value], mask: [n], transforms: transforms)
        case 2: return .update(name, fields: ["n": value], mask: [n], transforms: transforms)
        default: return .delete(name)
        }
    }

    @Test("a kept overlay equals one computed afresh, through 500 random steps", arguments: [1, 2, 3, 4])
    func keptOverlaysMatchFreshOnes(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var cache: [DocumentName: Document] = [:]
        var pending = PendingWrites([])
        var nextBatchID: Int64 = 1
        for step in 0..<500 {
            // Up to 30 batches queued, so a fresh overlay stays cheap under a sanitizer.
            switch pending.count >= 30 ? 6 : random.int(below: 10) {
            case 0..<5:
                let writes = (0...random.int(below: 2)).map { _ in Self.randomWrite(&random) }
                pending.append(MutationBatch(
                    batchID: nextBatchID, localWriteTime: try LocalStoreTests.time(Int64(step)), writes: writes))
                nextBatchID += 1
            case 5..<8:
                // Acknowledged (the oldest) or rejected (any).
                guard !pending.isEmpty else { continue }
                let index = random.int(below: 2) == 0 ? 0 : random.int(below: pending.count)
                let removed = pending.remove(pending.batches[index].batchID)
                #expect(removed)
            default:
                // The server's version of a document reached the cache.
                let name = Self.names[random.int(below: Self.names.count)]
                cache[name] = random.int(below: 3) == 0 ? nil : try LocalStoreTests.document(
                    name.path.description, fields: ["n": .integer(Int64(step)), "server": .boolean(true)])
                pending.forget([name])
            }
            for name in Self.names {
                let kept = pending.overlay(name) { cache[name] }
                var fresh = PendingWrites(pending.batches)
                let computed = fresh.overlay(name) { cache[name] }
                #expect(kept.localDocument == computed.localDocument, "step \(step), \(name.path)")
                #expect(kept.hasPendingWrites == computed.hasPendingWrites)
                #expect(pending.touches(name) == pending.batches.contains { $0.writes.contains { $0.name == name } })
            }
        }
    }

    @Test("a write to a document with 200 pending writes is one application")
    func aLongQueueIsNotReplayed() throws {
        let name = Self.names[0]
        var pending = PendingWrites([])
        var reads = 0
        for batchID in Int64(1)...200 {
            pending.append(MutationBatch(
                batchID: batchID, localWriteTime: try LocalStoreTests.time(batchID),
                writes: [.set(name, fields: ["n": .integer(batchID)])]))
            let overlay = pending.overlay(name) {
                reads += 1
                return nil
            }
            #expect(overlay.document?.fields == ["n": .integer(batchID)])
        }
        // The cache entry was read once, for the first overlay; every later one was extended.
        #expect(reads == 1)
        pending.remove(1)
        _ = pending.overlay(name) {
            reads += 1
            return nil
        }
        #expect(reads == 2)
    }

    /// The view of a document with a write still queued follows the server's version under it:
    /// the engine's kept overlay of the document (`PendingWrites`) is computed again when the
    /// cache entry changes, not extended from the old one.
    @Test(arguments: BackendKind.allCases)
    func aServerChangeUnderAPendingWriteShowsThroughIt(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let counter = test.db.document("rooms/counter")
            let held = test.db.document("rooms/held")
            try await counter.setData(["n": 1])
            try await held.setData(["v": 0])
            let snapshots = SnapshotCollector<DocumentSnapshot>()
            let registration = counter.addSnapshotListener(includeMetadataChanges: true) { snapshot, _ in
                if let snapshot { snapshots.add(snapshot) }
            }
            defer { registration.remove() }
            _ = try await snapshots.next { $0.get("n") as? Int == 1 && !$0.metadata.hasPendingWrites }

            // A transaction holds `rooms/held`, so the batch waits on the server (and is retried
            // after each lock timeout) until it ends: the batch stays queued meanwhile.
            let transaction = try test.store.beginTransaction()
            _ = try await test.store.document(try DocumentName(TestDatabase.database, "rooms/held"), transaction: transaction)
            let write = Task {
                try await test.db.batch()
                    .updateData(["n": FieldValue.increment(Int64(1))], forDocument: counter)
                    .setData(["v": 1], forDocument: held)
                    .commit()
            }
            let pending = try await snapshots.next { $0.metadata.hasPendingWrites }
            #expect(pending.get("n") as? Int == 2)

            // The server's version changes under the pending increment.
            try test.store.commit([.set(try DocumentName(TestDatabase.database, "rooms/counter"), fields: ["n": 10])])
            let shown = try await snapshots.next { $0.get("n") as? Int != 2 }
            #expect(shown.get("n") as? Int == 11, "the server's 10 with the pending increment")
            #expect(shown.metadata.hasPendingWrites)

            test.store.rollback(transaction)
            try await write.value
            let acknowledged = try await snapshots.next { !$0.metadata.hasPendingWrites }
            #expect(acknowledged.get("n") as? Int == 11)
        }
    }

    /// After `terminate()` a cached read finds the cache closed, as before overlays were kept,
    /// rather than a kept overlay of a write the instance just reported lost.
    @Test func aReadAfterTerminateFindsTheCacheClosed() async throws {
        try await TestDatabase.with(.embedded) { test in
            let db = test.as(.user(uid: "alice"))
            let ref = db.document("rooms/lost")
            await db.disableNetwork()
            let write = Task { try await ref.setData(["n": 1]) }
            let cached = try await eventually { try? await ref.getDocument(source: .cache) } until: { $0 != nil }
            #expect(cached?.get("n") as? Int == 1)
            await db.terminate()
            await #expect(throws: FirestoreError.self) { try await write.value }
            let error = await #expect(throws: FirestoreError.self) { try await ref.getDocument(source: .cache) }
            #expect(error?.code == .failedPrecondition)
        }
    }
}

extension SeededRandom {
    mutating func int(below bound: Int) -> Int { Int(next(below: UInt64(bound))) }
}
