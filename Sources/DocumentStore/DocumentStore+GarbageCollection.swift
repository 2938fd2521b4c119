import DocumentModel
import LevelDB
import Synchronization

extension DocumentStore {
    /// Deletes document versions that no read can see any more: those superseded (and
    /// tombstones written) longer ago than the retention window. Runs in the background every
    /// `garbageCollectionIntervalSeconds`; call it directly to collect now.
    ///
    /// - Returns: how many versions were deleted.
    @discardableResult
    public func collectGarbage() throws -> Int {
        let cutoff = configuration.clock.now().microsecondsSinceEpoch - configuration.retentionSeconds * 1_000_000
        let end = StorageKeys.expiryEnd(after: cutoff)
        var collected = 0
        try DocumentStore.mapLevelDBErrors {
            let batch = WriteBatch()
            try database.forEachEntry(in: KeyRange(from: StorageKeys.expiryPrefix, to: end)) { key, _ in
                batch.delete(key)
                batch.delete(Array(key[9...]))
                collected += 1
                if batch.count >= 2000 {
                    try writeCollected(batch)
                    batch.clear()
                }
            }
            if batch.count > 0 { try writeCollected(batch) }
        }
        return collected
    }

    /// Writes a batch of collected versions under the commit lock, so that it never races a
    /// commit's write (and a failed write stops the next one; see `Database.writeFailure`).
    private func writeCollected(_ batch: WriteBatch) throws {
        try commitState.withLock { _ in try database.write(batch) }
    }
}
