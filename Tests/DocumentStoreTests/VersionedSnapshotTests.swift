import DocumentModel
@testable import DocumentStore
import Foundation
import LevelDB
import Testing

/// `DocumentStore.versionedSnapshot()`: a query's snapshot and the commit version it reflects.
@Suite("Versioned snapshots")
struct VersionedSnapshotTests {
    @Test("a snapshot taken while a commit is being written waits for it and names its version")
    func snapshotDuringCommit() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try fixture.put(["c/a": ["x": 1]])
        let before = store.lastCommittedVersion.load(ordering: .sequentiallyConsistent)
        let marker = [StorageKeys.Table.metadata.rawValue, 0x7E]
        let started = DispatchSemaphore(value: 0)
        let taken = DispatchSemaphore(value: 0)
        let outcome = SnapshotOutcome()
        // Plays a commit at `before + 1`: under the commit lock it stores its version as in
        // flight, writes its batch, and only then publishes the version, as `write` does.
        let committer = Thread {
            store.commitState.withLock { _ in
                store.committingVersion.store(before + 1, ordering: .sequentiallyConsistent)
                try? store.database.put(marker, [1])
                started.signal()
                Thread.sleep(forTimeInterval: 0.2)
                store.lastCommittedVersion.store(before + 1, ordering: .sequentiallyConsistent)
            }
        }
        committer.start()
        started.wait()
        // A thread of its own: on Linux `DispatchQueue.global()` shares the Swift pool's threads.
        Thread.detachNewThread {
            outcome.record { try store.versionedSnapshot() }
            taken.signal()
        }
        taken.wait()
        let (snapshot, version) = try outcome.get()
        // The batch is in the snapshot, so the version must be the one that wrote it.
        #expect(try store.database.get(marker, options: ReadOptions(snapshot: snapshot)) == [1])
        #expect(version == before + 1, "the snapshot holds commit \(before + 1) but claims version \(version)")
    }

    @Test("between commits a snapshot is taken at once, at the last commit's version")
    func snapshotBetweenCommits() throws {
        let fixture = try StoreFixture()
        let committed = try fixture.store.commit([.create(try fixture.name("c/a"), fields: ["x": 1])]).commitTime
        let (_, version) = try fixture.store.versionedSnapshot()
        #expect(version == committed.microsecondsSinceEpoch)
    }
}

/// The result of the snapshot taken on another thread.
private final class SnapshotOutcome: @unchecked Sendable {
    private var result: Result<(Snapshot, Int64), any Error>?

    func record(_ body: () throws -> (snapshot: Snapshot, version: Int64)) {
        result = Result { try body() }.map { ($0.snapshot, $0.version) }
    }

    func get() throws -> (Snapshot, Int64) { try result!.get() }
}
