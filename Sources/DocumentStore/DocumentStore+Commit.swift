public import DocumentModel
import QueryEngine
import LevelDB
import Synchronization

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
    ///
    /// A transaction that read a document this changes, or ran a query whose results this
    /// changes, is aborted (its commit fails with ABORTED); `commitWaitingForLocks(_:as:)` waits
    /// for it instead, as Firestore does.
    ///
    /// Committed as `identity` (the admin by default, which bypasses security rules), each write
    /// must be allowed by the rules' `create`, `update` or `delete`, judged against the commit's
    /// post-commit view (`getAfter`), before anything is written; a denial is
    /// `.permissionDenied` naming the rules evaluated, and is reported before a failed
    /// precondition, as Firestore does.
    @discardableResult
    public func commit(_ writes: [Write], as identity: RequestIdentity = .admin) throws -> CommitResult {
        try commitAbortingHolders(writes, authorizer: writeAuthorizer(for: identity, writes: writes))
    }

    /// Applies `writes` atomically (see `commit(_:as:)`, and for `identity`) once no transaction
    /// holds a lock on what they change: it waits, suspended, for such transactions to commit or
    /// roll back, at most `StoreConfiguration.transactionLockWaitSeconds`, then fails with
    /// ABORTED ("Transaction lock timeout"), as Google's emulator does.
    @discardableResult
    public func commitWaitingForLocks(
        _ writes: [Write], as identity: RequestIdentity = .admin
    ) async throws -> CommitResult {
        try await commitWaitingForLocks(
            writes, transaction: nil, authorizer: writeAuthorizer(for: identity, writes: writes))
    }

    /// How a commit treats other transactions' locks on what it changes.
    enum LockPolicy {
        /// Report them (`CommitAttempt.blocked`), to wait for their holders.
        case wait
        /// Abort their holders and go on.
        case abortHolders
    }

    /// The outcome of one try at a commit.
    enum CommitAttempt {
        case committed(CommitResult)
        /// Other transactions hold locks on what the commit changes; nothing was written.
        case blocked([TransactionManager.Conflict])
    }

    /// Commits outside any transaction, aborting the transactions whose locks the writes touch.
    func commitAbortingHolders(_ writes: [Write], authorizer: CommitAuthorizer?) throws -> CommitResult {
        let writes = try WriteValidator.validated(writes)
        guard case .committed(let result) = try attemptCommit(
            writes, transaction: nil, policy: .abortHolders, authorizer: authorizer)
        else { throw FirestoreError(.internal, "A commit that aborts lock holders was blocked") }
        return result
    }

    /// Commits `writes`, in `transaction` or outside any, waiting (suspended) for the
    /// transactions whose locks they touch until `lockWaitTimeout` has passed; on the writer
    /// thread (see `writing(_:)`).
    func commitWaitingForLocks(
        _ writes: [Write], transaction: TransactionID?, authorizer: CommitAuthorizer?
    ) async throws -> CommitResult {
        try await writing {
            let writes = try WriteValidator.validated(writes)
            let deadline = ContinuousClock.now + transactions.lockWaitTimeout
            while true {
                switch try attemptCommit(writes, transaction: transaction, policy: .wait, authorizer: authorizer) {
                case .committed(let result): return result
                case .blocked(let conflicts):
                    try await transactions.wait(for: conflicts, requester: transaction, until: deadline)
                }
            }
        }
    }

    /// One try at committing validated `writes`, under the commit lock. In a transaction, every
    /// document it read must still have the version it read (otherwise ABORTED). Other
    /// transactions' locks on what the writes change block the commit or are broken, as
    /// `policy` says; once written, a range registered meanwhile that the commit changed aborts
    /// its transaction (the safety net of `TransactionManager`).
    func attemptCommit(
        _ writes: [Write], transaction: TransactionID?, policy: LockPolicy, authorizer: CommitAuthorizer?
    ) throws -> CommitAttempt {
        try commitState.withLock { state in
            try DocumentStore.mapLevelDBErrors {
                try resumeWritesIfStopped(&state)
                let cursor = LazyCursor(database)
                if let transaction {
                    let (mode, reads) = try transactions.commitInfo(transaction)
                    if case .readOnly = mode, !writes.isEmpty {
                        throw FirestoreError.invalidArgument("Cannot modify entities in a read-only transaction.")
                    }
                    try verify(reads, cursor: cursor)
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
                        try WriteApplication.check(write.precondition, against: current?.document, name: write.name)
                    } catch let error as FirestoreError where authorizer != nil {
                        // Firestore judges security rules before preconditions: a denied write
                        // reports PERMISSION_DENIED even when its precondition fails too.
                        if deferredFailure == nil { deferredFailure = error }
                    }
                    let (document, transformResults) = try WriteApplication.apply(
                        write, to: current?.document, commitTime: commitTime)
                    pending.record(document.map(StoredVersion.live) ?? .tombstone, at: position)
                    positions.append(position)
                    results.append(WriteResult(updateTime: nil, transformResults: transformResults))
                }
                // What the commit changes, computed once for the conflict check, the listeners
                // and the range check after the write, whichever need it.
                var changes: [DocumentChangeRecord]?
                if transaction != nil || transactions.mayConflict {
                    let changed = pending.changeRecords()
                    changes = changed
                    let conflicts = try transactions.claim(changed, for: transaction)
                    if !conflicts.isEmpty {
                        switch policy {
                        case .wait: return .blocked(conflicts)
                        case .abortHolders: transactions.abortHolders(of: changed)
                        }
                    }
                }
                if let authorizer {
                    let (before, after) = pending.documentStates()
                    try authorizer(commitTime, existedBefore, before, after)
                }
                if let deferredFailure { throw deferredFailure }
                let batch = state.emptyBatch()
                pending.fill(batch, version: version, indexGroups: &state.indexGroups, scratch: state.keyScratch)
                // Before the write: a write reported as failed may still reach the disk.
                presence.insert(keyPrefixes: pending.createdDocumentKeyPrefixes())
                try write(batch, version: version, state: &state)
                // A range locked since the check (none was held then, or it came meanwhile) may
                // have been read before this write: the range check runs whenever locks exist now.
                if changes == nil, !listeners.isEmpty || transactions.mayConflict { changes = pending.changeRecords() }
                if let changes {
                    publish(changes, version: version)
                    if transactions.mayConflict { transactions.abortRanges(covering: changes, except: transaction) }
                }
                for index in writes.indices {
                    results[index].updateTime = pending.updateTime(at: positions[index])
                }
                return .committed(CommitResult(commitTime: commitTime, writeResults: results))
            }
        }
    }

    /// Checks that every document a transaction read still has the version it read; a changed
    /// one is contended: it is marked hot (see `TransactionManager`) and the commit is ABORTED.
    private func verify(_ reads: [DocumentName: Int64?], cursor: LazyCursor) throws {
        for (name, readVersion) in reads {
            let current = try readDocument(name, atVersion: .max, cursor: cursor)?.updateTime.microsecondsSinceEpoch
            guard current == readVersion else {
                transactions.markHot([name])
                throw FirestoreError(
                    .aborted,
                    "\(TransactionManager.contention) \(name.resourceName) changed after the transaction read it. "
                        + "Retry the transaction.")
            }
        }
    }
}
