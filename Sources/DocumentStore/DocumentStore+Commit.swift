import DocumentModel
import LevelDB

extension DocumentStore {
    /// Applies `writes` atomically, in order, in one LevelDB write batch.
    ///
    /// The pipeline: validate every write and its limits → take the commit lock and a commit
    /// version → read the current version of each touched document → check preconditions →
    /// apply operations and transforms (server timestamps are the commit time) → check document
    /// sizes → one write batch with the new versions, expiry-queue entries and the last commit
    /// version. Any failure leaves the store unchanged.
    ///
    /// - Throws: `FirestoreError`: `.invalidArgument` for bad input or limits, `.notFound` and
    ///   `.alreadyExists` for `exists` preconditions, `.failedPrecondition` for `updateTime`.
    @discardableResult
    public func commit(_ writes: [Write]) throws -> CommitResult {
        try WriteValidator.validate(writes)
        return try commitState.withLock { clock in
            try DocumentStore.mapLevelDBErrors {
                let cursor = try database.makeCursor()
                let version = clock.next()
                let commitTime = Timestamp(microsecondsSinceEpoch: version)
                var pending = PendingCommit(commitTime: commitTime)
                var results: [WriteResult] = []
                results.reserveCapacity(writes.count)
                for write in writes {
                    let current = try pending.state(of: write.name) {
                        try readStoredVersion($0, atVersion: .max, cursor: cursor)
                    }
                    try WriteApplier.check(write.precondition, against: current, name: write.name)
                    let (next, transformResults) = try WriteApplier.apply(write, to: current, commitTime: commitTime)
                    pending.record(next, for: write.name)
                    results.append(WriteResult(updateTime: nil, transformResults: transformResults))
                }
                let batch = try pending.makeBatch(version: version)
                var lastCommit = OrderedKey(capacity: 8)
                lastCommit.appendInt64(version)
                batch.put(StorageKeys.metadata(.lastCommit), lastCommit.bytes)
                try database.write(batch, sync: configuration.syncCommits)
                lastCommittedVersion.store(version, ordering: .releasing)
                for index in writes.indices {
                    results[index].updateTime = pending.updateTime(of: writes[index].name)
                }
                return CommitResult(commitTime: commitTime, writeResults: results)
            }
        }
    }
}
