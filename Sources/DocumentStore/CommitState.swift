import DocumentModel
import LevelDB

/// What the commit path owns, guarded by the store's commit lock: holding the lock is what
/// makes a commit the only writer.
struct CommitState {
    /// Hands out commit versions.
    var clock: CommitClock
    /// The index's collection group ids.
    var indexGroups: IndexGroupCatalog
    /// The version stored under the last-commit key: no commit is later (see `StorageKeys`).
    var reservedVersion: Int64
    /// The write batch commits fill, reused so that its buffer stays allocated.
    private var batch = WriteBatch()
    /// The buffer a commit builds its keys in (see `PendingCommit.fill`).
    let keyScratch = KeyScratch()

    /// How far past a commit's version a new reservation reaches: one second of versions, so
    /// that a steady stream of commits writes the last-commit key about once a second.
    static let reservationMicroseconds: Int64 = 1_000_000

    init(clock: CommitClock, indexGroups: IndexGroupCatalog, reservedVersion: Int64) {
        self.clock = clock
        self.indexGroups = indexGroups
        self.reservedVersion = reservedVersion
    }

    /// An empty write batch for the next commit: the reused one, or a new one after a large
    /// commit (so that its memory is given back).
    mutating func emptyBatch() -> WriteBatch {
        if batch.byteCount > 1 << 20 {
            batch = WriteBatch()
        } else {
            batch.clear()
        }
        return batch
    }

    /// Adds a new reservation to `batch` if the commit at `version` passes the stored one, and
    /// returns the reservation to keep once the batch is written.
    func reserve(_ version: Int64, in batch: WriteBatch) -> Int64 {
        guard version > reservedVersion else { return reservedVersion }
        let reservation = version + CommitState.reservationMicroseconds
        var bytes = OrderedKey(capacity: 8)
        bytes.appendInt64(reservation)
        batch.put(StorageKeys.lastCommitKey, bytes.bytes)
        return reservation
    }
}
