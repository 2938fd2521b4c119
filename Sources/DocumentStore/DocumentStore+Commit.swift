import DocumentModel
import LevelDB

extension DocumentStore {
    /// Applies `writes` atomically, in order, in one LevelDB write batch.
    ///
    /// The pipeline: validate every write and its limits → take the commit lock and a commit
    /// version → read the current version of each touched document → check preconditions →
    /// apply operations and transforms (server timestamps are the commit time) → check document
    /// sizes → one write batch with the new versions, expiry-queue entries and index changes.
    /// Any failure leaves the store unchanged.
    ///
    /// - Throws: `FirestoreError`: `.invalidArgument` for bad input or limits, `.notFound` and
    ///   `.alreadyExists` for `exists` preconditions, `.failedPrecondition` for `updateTime`.
    @discardableResult
    public func commit(_ writes: [Write]) throws -> CommitResult {
        try commit(writes, verifyingReads: [:])
    }

    /// Commits `writes` if every document in `reads` still has the version it was read at
    /// (`nil`: it did not exist), checked under the commit lock; otherwise fails with ABORTED.
    func commit(
        _ writes: [Write], verifyingReads reads: [DocumentName: Int64?], authorizer: CommitAuthorizer? = nil
    ) throws -> CommitResult {
        let writes = try WriteValidator.validated(writes)
        return try commitState.withLock { state in
            try DocumentStore.mapLevelDBErrors {
                let cursor = LazyCursor(database)
                for (name, readVersion) in reads {
                    let current = try readDocument(name, atVersion: .max, cursor: cursor)?.updateTime.microsecondsSinceEpoch
                    guard current == readVersion else {
                        throw FirestoreError(
                            .aborted,
                            "Transaction aborted: \(name.resourceName) changed after the transaction read it. "
                                + "Retry the transaction.")
                    }
                }
                let version = state.clock.next()
                let commitTime = Timestamp(microsecondsSinceEpoch: version)
                var pending = PendingCommit(commitTime: commitTime, writeCount: writes.count)
                var results: [WriteResult] = []
                results.reserveCapacity(writes.count)
                var positions: [PendingCommit.Position] = []
                positions.reserveCapacity(writes.count)
                var deferredFailure: FirestoreError?
                var existedBefore: [Bool] = []
                if authorizer != nil { existedBefore.reserveCapacity(writes.count) }
                for write in writes {
                    let position = try pending.touch(write.name) {
                        try readStoredVersion($0, keyPrefix: $1, atVersion: .max, cursor: cursor)
                    }
                    let current = pending.state(at: position)
                    if authorizer != nil { existedBefore.append(current?.document != nil) }
                    do {
                        try WriteApplier.check(write.precondition, against: current, name: write.name)
                    } catch let error as FirestoreError where authorizer != nil {
                        // Firestore judges security rules before preconditions: a denied write
                        // reports PERMISSION_DENIED even when its precondition fails too.
                        if deferredFailure == nil { deferredFailure = error }
                    }
                    let (next, transformResults) = try WriteApplier.apply(write, to: current, commitTime: commitTime)
                    pending.record(next, at: position)
                    positions.append(position)
                    results.append(WriteResult(updateTime: nil, transformResults: transformResults))
                }
                if let authorizer {
                    let (before, after) = pending.documentStates()
                    try authorizer(commitTime, existedBefore, before, after)
                }
                if let deferredFailure { throw deferredFailure }
                let batch = state.emptyBatch()
                pending.fill(batch, version: version, indexGroups: &state.indexGroups, scratch: state.keyScratch)
                try write(batch, version: version, state: &state)
                presence.insert(keyPrefixes: pending.createdDocumentKeyPrefixes())
                publish(pending, version: version)
                for index in writes.indices {
                    results[index].updateTime = pending.updateTime(at: positions[index])
                }
                return CommitResult(commitTime: commitTime, writeResults: results)
            }
        }
    }
}
