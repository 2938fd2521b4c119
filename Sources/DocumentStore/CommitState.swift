import LevelDB

/// What the commit path owns, guarded by the store's commit lock: holding the lock is what
/// makes a commit the only writer.
struct CommitState {
    /// Hands out commit versions.
    var clock: CommitClock
    /// The index's collection group ids.
    var indexGroups: IndexGroupCatalog
    /// The write batch commits fill, reused so that its buffer stays allocated.
    private var batch = WriteBatch()

    init(clock: CommitClock, indexGroups: IndexGroupCatalog) {
        self.clock = clock
        self.indexGroups = indexGroups
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
}
