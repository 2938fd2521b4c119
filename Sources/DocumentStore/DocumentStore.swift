public import DocumentModel
import Foundation
import LevelDB
import SecurityRules
import Synchronization

/// Hearth's database engine: durable, multi-version documents in one LevelDB folder, for any
/// number of projects and databases.
///
/// Commits are serialized (one writer) and each is one atomic LevelDB write batch; reads never
/// wait for the writer, and read at a commit version (the newest, or a past `readTime` within
/// the retention window).
///
/// ```swift
/// let store = try DocumentStore(path: "/tmp/hearth")
/// let db = try DatabaseID(project: "demo")
/// let alice = try DocumentName(db, "users/alice")
/// let result = try store.commit([.create(alice, fields: ["email": "alice@example.com"])])
/// let doc = try store.document(alice)
/// try store.close()
/// ```
public final class DocumentStore: Sendable {
    /// The storage format this version reads and writes. Format 2 added the single-field
    /// index; format 3 shortened its keys (a collection group id instead of the project,
    /// database and group names); format 4 encodes numeric document ids (`__id<int64>__`) as
    /// numbers in every path, so they sort first; format 5 drops the index entry per document
    /// (one LevelDB entry less per create); format 6 keeps the sign of a zero coordinate in the
    /// index keys of geo points (`GeoPoint(-0.0, x)` orders before `GeoPoint(0.0, x)`). An older
    /// folder is upgraded when it is opened: its document keys are moved and its index rebuilt
    /// (see `IndexRebuild`).
    public static let formatVersion: UInt64 = 6

    let database: Database
    let configuration: StoreConfiguration
    /// The commit path's state; holding the lock is what makes a commit the only writer.
    let commitState: Mutex<CommitState>
    /// The newest version whose commit is fully written, readable without taking the lock.
    let lastCommittedVersion: Atomic<Int64>
    /// The version of the commit being written, stored before its batch is written; equal to
    /// `lastCommittedVersion` between commits (see `versionedSnapshot()`).
    let committingVersion: Atomic<Int64>
    /// Which documents may exist, so reads of documents that cannot exist skip LevelDB.
    let presence: DocumentPresenceFilter
    /// The transactions in progress and their locks.
    let transactions: TransactionManager
    /// The registered listeners, which every commit is published to.
    let listeners = ListenerRegistry()
    /// Which security rules apply to each project.
    let rulesets = ProjectRulesets()
    private let collector: Mutex<Task<Void, Never>?>
    /// The threads blocking work runs on when called from async code (see `reading(_:)`).
    let threads = StoreThreads()
    /// Records the logs' synced sizes while the store runs, when configured (see `CleanStopRecord`).
    let logWatermark: LogWatermark?

    /// The data folder.
    public var path: String { database.path }

    /// Opens the store in the folder `path`, creating it if the folder is absent or empty.
    ///
    /// - Throws: `FirestoreError` with `.failedPrecondition` when the folder is used by another
    ///   process or was written by a newer Hearth, `.dataLoss` naming the damaged file when it
    ///   is corrupt, holds LevelDB files without their `CURRENT` file, or has a write-ahead log
    ///   shorter than when last recorded: at the last clean stop, or at the last watermark before
    ///   a crash (`StoreConfiguration.logWatermarkInterval`; see `CleanStopRecord`).
    public init(path: String, configuration: StoreConfiguration = StoreConfiguration()) throws {
        try DataFolder.prepare(path)
        let cleanStop = CleanStopRecord(folder: path)
        try cleanStop.verify()
        do {
            database = try Database(path: path, options: configuration.levelDB)
        } catch let error as LevelDBError {
            throw DataFolder.openError(error, path: path)
        }
        cleanStop.remove()
        logWatermark = configuration.logWatermarkInterval.map { LogWatermark(folder: path, interval: $0) }
        self.configuration = configuration
        let (lastVersion, indexGroups) = try DocumentStore.prepareMetadata(database)
        try BulkLoadMarker.rollBackInterrupted(in: database)
        commitState = Mutex(
            CommitState(
                clock: CommitClock(clock: configuration.clock, lastVersion: lastVersion), indexGroups: indexGroups,
                reservedVersion: lastVersion))
        lastCommittedVersion = Atomic(lastVersion)
        committingVersion = Atomic(lastVersion)
        presence = DocumentPresenceFilter(scanning: database)
        transactions = TransactionManager(
            clock: configuration.clock, lockWaitTimeout: .seconds(configuration.transactionLockWaitSeconds),
            idleTimeoutSeconds: configuration.transactionIdleSeconds,
            maximumAgeSeconds: configuration.transactionMaximumSeconds, locksRanges: configuration.locksQueryRanges)
        collector = Mutex(nil)
        if let interval = configuration.garbageCollectionIntervalSeconds {
            startCollector(every: interval)
        }
    }

    /// Stops background work and closes the database, storing the exact last commit version.
    /// Further calls throw `.failedPrecondition`.
    public func close() throws {
        collector.withLock { task in
            task?.cancel()
            task = nil
        }
        presence.stop()
        listeners.removeAll()
        logWatermark?.stop()
        try commitState.withLock { state in
            try DocumentStore.mapLevelDBErrors {
                let last = lastCommittedVersion.load(ordering: .sequentiallyConsistent)
                // After a failed write (a full disk) the stored reservation is kept: it already
                // bounds every commit, so nothing is lost by not tightening it.
                if last != state.reservedVersion, database.writeFailure == nil {
                    var bytes = OrderedKey(capacity: 8)
                    bytes.appendInt64(last)
                    do {
                        try database.put(StorageKeys.lastCommitKey, bytes.bytes, sync: true)
                        state.reservedVersion = last
                    } catch let error as LevelDBError where error.code == .ioError {}
                }
                try database.close()
                threads.shutdown()
                // Without it the next open checks nothing; the store is closed either way.
                try? CleanStopRecord(folder: path).write()
            }
        }
    }

    /// Writes a commit's `batch` at `version` (under the commit lock, `state` being its state),
    /// with the last-commit reservation if the version passes it, and publishes the version.
    /// Collection groups the batch gives ids to are kept only if it is written. A full disk
    /// fails it with RESOURCE_EXHAUSTED (see `resumeWritesIfStopped`).
    func write(_ batch: WriteBatch, version: Int64, state: inout CommitState) throws {
        let reservation = state.reserve(version, in: batch)
        committingVersion.store(version, ordering: .sequentiallyConsistent)
        do {
            try database.write(batch, sync: configuration.syncCommits)
        } catch {
            committingVersion.store(lastCommittedVersion.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            state.indexGroups.forgetUnwritten()
            if let error = error as? LevelDBError, error.code == .ioError { throw writeError(error) }
            throw error
        }
        lastCommittedVersion.store(version, ordering: .sequentiallyConsistent)
        state.reservedVersion = reservation
        state.indexGroups.keepUnwritten()
        logWatermark?.noteCommit()
    }

    /// A LevelDB snapshot and the commit version it reflects: every commit up to that version
    /// and none after it.
    ///
    /// A commit stores its version in `committingVersion` before writing its batch and in
    /// `lastCommittedVersion` after. A snapshot taken after reading the committed version `V`,
    /// with `committingVersion` still `V` after it, was taken between commits: any later commit
    /// would have stored its own version first. Otherwise a commit was being written; after a
    /// few tries the snapshot is taken under the commit lock, between two commits.
    func versionedSnapshot() throws -> (snapshot: Snapshot, version: Int64) {
        for _ in 0..<3 {
            let committed = lastCommittedVersion.load(ordering: .sequentiallyConsistent)
            let snapshot = try database.snapshot()
            if committingVersion.load(ordering: .sequentiallyConsistent) == committed { return (snapshot, committed) }
        }
        return try commitState.withLock { _ in
            (try database.snapshot(), lastCommittedVersion.load(ordering: .sequentiallyConsistent))
        }
    }

    /// The time of the last commit, or `nil` if nothing was ever committed.
    public var lastCommitTime: Timestamp? {
        let version = lastCommittedVersion.load(ordering: .acquiring)
        return version == 0 ? nil : Timestamp(microsecondsSinceEpoch: version)
    }

    /// Checks the format version of an existing store (upgrading an older one), or writes it
    /// into a new one, and returns the stored last-commit version (a reservation, see `StorageKeys`)
    /// and the index's collection groups.
    private static func prepareMetadata(_ database: Database) throws -> (Int64, IndexGroupCatalog) {
        try mapLevelDBErrors {
            let formatKey = StorageKeys.metadata(.formatVersion)
            if let stored = try database.get(formatKey) {
                var reader = OrderedKeyReader(stored)
                let format = try reader.readUInt64()
                guard format <= formatVersion else {
                    throw FirestoreError(
                        .failedPrecondition,
                        "Data folder '\(database.path)' uses storage format \(format), but this Hearth reads only "
                            + "format \(formatVersion) and older: use a newer Hearth")
                }
                if format < formatVersion { try IndexRebuild.run(database, upgradingFrom: format, to: formatVersion) }
            } else {
                var key = OrderedKey(capacity: 8)
                key.appendUInt64(formatVersion)
                try database.put(formatKey, key.bytes, sync: true)
            }
            let indexGroups = try IndexGroupCatalog.load(from: database)
            guard let last = try database.get(StorageKeys.metadata(.lastCommit)) else { return (0, indexGroups) }
            var reader = OrderedKeyReader(last)
            return (try reader.readInt64(), indexGroups)
        }
    }

    /// Turns a LevelDB failure into a `FirestoreError` that names the folder.
    static func storeError(_ error: LevelDBError) -> FirestoreError {
        switch error.code {
        case .databaseInUse: FirestoreError(.failedPrecondition, error.message)
        case .corruption: FirestoreError(.dataLoss, error.message)
        case .closed: FirestoreError(.failedPrecondition, "The store is closed: \(error.message)")
        default: FirestoreError(.internal, error.message)
        }
    }

    /// Runs `body`, reporting LevelDB failures as `FirestoreError`s.
    static func mapLevelDBErrors<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as LevelDBError { throw storeError(error) }
    }

    /// Runs `body`, reporting LevelDB failures as `FirestoreError`s; damage (`.dataLoss`) names
    /// `what` was being read, such as a document or a query's collection.
    func mapLevelDBErrors<R>(reading what: @autoclosure () -> String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as LevelDBError where error.code == .corruption {
            throw FirestoreError(
                .dataLoss,
                "\(what()) cannot be read: data folder '\(path)' is damaged (LevelDB: \(error.message)). "
                    + "\(DataFolder.advice).")
        } catch let error as LevelDBError {
            throw DocumentStore.storeError(error)
        }
    }

    private func startCollector(every interval: Double) {
        let task = Task.detached(executorPreference: threads.readers) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                guard !Task.isCancelled, let self else { return }
                _ = try? self.collectGarbage()
            }
        }
        collector.withLock { $0 = task }
    }
}
