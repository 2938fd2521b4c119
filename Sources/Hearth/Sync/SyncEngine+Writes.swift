import DocumentModel
import Foundation
import Synchronization

extension SyncEngine {
    /// The first wait before the writer sends a batch again after a transient failure, doubled
    /// after each one up to `maximumWriteBackoff`.
    static let initialWriteBackoff: Duration = .milliseconds(100)
    static let maximumWriteBackoff: Duration = .seconds(2)

    /// Queues `writes` as one batch, shows it in every view at once, and returns when the
    /// server acknowledges it.
    ///
    /// - Throws: the server's error when it rejects the batch (whose effects then leave the
    ///   views); `CancellationError` when the calling task is cancelled first (the batch stays
    ///   queued, and a rejection then goes to the write-failure listeners).
    @discardableResult
    func write(_ writes: [Write]) async throws -> CommitReport {
        let (batch, sendsNow, hasViews) = try state.withLock { state -> (MutationBatch, Bool, Bool) in
            guard !state.isTerminated else {
                throw FirestoreError(.failedPrecondition, "The client has already been terminated.")
            }
            let batch = MutationBatch(
                batchID: try store.nextBatchID(), localWriteTime: Timestamp(date: Date()), writes: writes)
            var change = LocalStoreChange()
            change.addedBatches = [batch]
            try apply(change, &state)
            state.pending.append(batch)
            state.awaited.insert(batch.batchID)
            refreshViews(changed: Set(writes.map(\.name)), &state)
            // Alone in the queue with the server reachable, the batch is sent by this call, which
            // spares the writer task's round of scheduling; otherwise the writer sends it in turn.
            let sendsNow = state.networkEnabled && !state.isSending && !state.writerIsRetrying && state.pending.count == 1
            if sendsNow { state.isSending = true } else { kickWriter(&state) }
            return (batch, sendsNow, !state.views.isEmpty)
        }
        if sendsNow {
            // A listener this write woke runs first, on this thread, rather than waiting for
            // another thread to wake up while this one prepares the request (a yield puts this
            // task behind it in the executor's queue).
            if hasViews { await Task.yield() }
            await send(batch)
        }
        return try await waitForAcknowledgement(of: batch.batchID)
    }

    /// Sends one batch: acknowledged, rejected, or left queued for the writer to retry.
    private func send(_ batch: MutationBatch) async {
        do {
            let report = try await backend.commit(batch.writes, transaction: nil, as: identity)
            acknowledge(batch, report)
        } catch let error as FirestoreError where !Self.isTransient(error.code) {
            reject(batch, error)
        } catch {
            state.withLock { state in
                state.isSending = false
                kickWriter(&state)
            }
        }
    }

    private func waitForAcknowledgement(of batchID: Int64) async throws -> CommitReport {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<CommitReport, any Error>) in
                let outcome = state.withLock { state -> Result<CommitReport, any Error>? in
                    if let outcome = state.outcomes.removeValue(forKey: batchID) {
                        state.awaited.remove(batchID)
                        return outcome.mapError { $0 }
                    }
                    guard state.awaited.contains(batchID) else { return .failure(CancellationError()) }
                    if state.isTerminated {
                        return .failure(FirestoreError(.unavailable, "The Firestore instance was terminated."))
                    }
                    state.acknowledgementWaiters[batchID] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.awaited.remove(batchID)
                return state.acknowledgementWaiters.removeValue(forKey: batchID)
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Returns once every batch queued before the call is acknowledged or rejected.
    func waitForPendingWrites() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard let last = state.pending.last?.batchID, !state.isTerminated else { return true }
                state.drainWaiters.append((last, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Registers a listener for batches the server rejected while nobody awaited them.
    func addFailureListener(_ listener: @escaping @Sendable (WriteFailure) -> Void) -> Int {
        state.withLock { state in
            defer { state.nextFailureListenerID += 1 }
            state.failureListeners[state.nextFailureListenerID] = listener
            return state.nextFailureListenerID
        }
    }

    func removeFailureListener(_ id: Int) {
        _ = state.withLock { $0.failureListeners.removeValue(forKey: id) }
    }

    func kickWriter(_ state: inout State) {
        state.writerKicked = true
        state.writerWake?.resume()
        state.writerWake = nil
    }

    // MARK: The writer

    /// Sends the queued batches in order, one `Commit` each, until the engine terminates.
    func runWriter() async {
        var backoff = Self.initialWriteBackoff
        while let batch = await nextBatchToSend() {
            do {
                let report = try await backend.commit(batch.writes, transaction: nil, as: identity)
                acknowledge(batch, report)
                backoff = Self.initialWriteBackoff
            } catch let error as FirestoreError where !Self.isTransient(error.code) {
                reject(batch, error)
            } catch {
                state.withLock { state in
                    state.isSending = false
                    state.writerIsRetrying = true
                }
                if Task.isCancelled { return }
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, Self.maximumWriteBackoff)
            }
        }
    }

    /// Whether a failed commit is retried, as the SDKs decide: everything but a permanent
    /// answer about the writes themselves.
    static func isTransient(_ code: FirestoreError.Code) -> Bool {
        [.cancelled, .unknown, .deadlineExceeded, .resourceExhausted, .internal, .unavailable, .unauthenticated, .aborted]
            .contains(code)
    }

    /// The next batch to send, waiting while there is none or the network is disabled; `nil`
    /// once the engine terminates.
    private func nextBatchToSend() async -> MutationBatch? {
        while true {
            let next = state.withLock { state -> MutationBatch?? in
                if state.isTerminated { return .some(nil) }
                if state.networkEnabled, !state.isSending, let first = state.pending.first {
                    state.isSending = true
                    return .some(first)
                }
                state.writerKicked = false
                state.writerIsRetrying = false
                return nil
            }
            if let next { return next }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.writerKicked || state.isTerminated { return true }
                    state.writerWake = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// The server committed `batch`: it leaves the queue, and the cache takes the documents as
    /// the server now holds them.
    private func acknowledge(_ batch: MutationBatch, _ report: CommitReport) {
        state.withLock { state in
            state.isSending = false
            if state.pending.count > 1 { kickWriter(&state) }
            guard state.pending.remove(batch.batchID) else { return }
            state.writerIsRetrying = false
            var change = LocalStoreChange()
            change.removedBatchIDs = [batch.batchID]
            let names = (try? recordCommitted(batch.writes, report, into: &change)) ?? []
            do {
                try apply(change, &state)
            } catch {
                logLocalStoreFailure(error)
            }
            complete(batch, .success(report), &state)
            refreshViews(changed: names, &state)
            resolveLimboAfterWrites(&state)
        }
    }

    /// The cache entries for writes the server committed: each document as the writes left it,
    /// at the commit time, with the values the server's transforms took. A write that changes
    /// part of a document the cache does not hold is not recorded (the cache cannot know the
    /// rest); the server's next snapshot brings it.
    @discardableResult
    func recordCommitted(_ writes: [Write], _ report: CommitReport, into change: inout LocalStoreChange) throws
        -> Set<DocumentName>
    {
        var overlays: [DocumentName: (overlay: LocalOverlay, isComplete: Bool)] = [:]
        for (index, write) in writes.enumerated() {
            var current = try overlays[write.name] ?? {
                let document = try store.entry(write.name)?.document
                return (LocalOverlay(document), true)
            }()
            if current.overlay.document == nil {
                switch write.operation {
                case .update(_, .some), .transform: current.isComplete = false
                default: break
                }
            }
            if case .update(_, nil) = write.operation { current.isComplete = true }
            if case .delete = write.operation { current.isComplete = true }
            let results = index < report.transformResults.count ? report.transformResults[index] : []
            current.overlay.applyAcknowledged(write, commitTime: report.commitTime, transformResults: results)
            overlays[write.name] = current
        }
        var documents: [DocumentName: Document?] = [:]
        for (name, entry) in overlays where entry.isComplete { documents[name] = .some(entry.overlay.document) }
        var names = try record(documents, readTime: report.commitTime, into: &change)
        names.formUnion(writes.map(\.name))
        return names
    }

    /// The server refused `batch`: it leaves the queue and its effects leave the views; its
    /// caller, or else the write-failure listeners, learn why.
    private func reject(_ batch: MutationBatch, _ error: FirestoreError) {
        let (listeners, awaited) = state.withLock { state in
            state.isSending = false
            state.pending.remove(batch.batchID)
            if !state.pending.isEmpty { kickWriter(&state) }
            var change = LocalStoreChange()
            change.removedBatchIDs = [batch.batchID]
            do {
                try apply(change, &state)
            } catch {
                logLocalStoreFailure(error)
            }
            let awaited = complete(batch, .failure(error), &state)
            refreshViews(changed: Set(batch.writes.map(\.name)), &state)
            resolveLimboAfterWrites(&state)
            return (Array(state.failureListeners.values), awaited)
        }
        guard !awaited else { return }
        let paths = batch.writes.map(\.name.path.description)
        FileHandle.standardError.write(Data(
            "Hearth: the server rejected a queued write to \(paths.joined(separator: ", ")): \(error)\n".utf8))
        let failure = WriteFailure(documentPaths: paths, error: error)
        for listener in listeners { listener(failure) }
    }

    /// Hands a batch's outcome to its caller, or keeps it until the caller waits; resumes the
    /// `waitForPendingWrites()` callers it completes. Returns whether a caller awaits it.
    @discardableResult
    private func complete(_ batch: MutationBatch, _ outcome: Result<CommitReport, FirestoreError>, _ state: inout State) -> Bool {
        var awaited = false
        if let waiter = state.acknowledgementWaiters.removeValue(forKey: batch.batchID) {
            state.awaited.remove(batch.batchID)
            waiter.resume(with: outcome.mapError { $0 })
            awaited = true
        } else if state.awaited.contains(batch.batchID) {
            state.outcomes[batch.batchID] = outcome
            awaited = true
        }
        let firstPending = state.pending.first?.batchID ?? .max
        state.drainWaiters.removeAll { waiter in
            guard waiter.upTo < firstPending else { return false }
            waiter.continuation.resume()
            return true
        }
        return awaited
    }

    /// Reports a failure of the local cache itself (a damaged or full disk), which the engine
    /// cannot recover from.
    func logLocalStoreFailure(_ error: any Error) {
        FileHandle.standardError.write(Data("Hearth: the local cache failed: \(error)\n".utf8))
    }
}
