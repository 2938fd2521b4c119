import DocumentModel
import QueryEngine
import Synchronization

/// A listener's snapshots as an `AsyncSequence`: first the target's full state, then one
/// snapshot per batch of commits that changed it. Iteration ends when the listener is
/// cancelled (`cancel()`, the consuming task is cancelled, or the stream is released).
///
/// Tasks iterating one stream at once take turns: each snapshot goes to exactly one of them, in
/// version order, and its changes are relative to the snapshot delivered just before it,
/// whichever task received that one. Iterate a stream from one task to see every change.
///
/// ```swift
/// let stream = try store.listen(to: .document(alice))
/// for try await snapshot in stream {
///     print(snapshot.documents.first?.fields ?? "missing", snapshot.changes.map(\.kind))
/// }
/// ```
public struct ListenerStream: AsyncSequence, Sendable {
    public typealias Element = ListenSnapshot

    let registration: ListenerRegistration

    /// Stops the listener; iteration ends and everything it held is released.
    public func cancel() {
        registration.cancel()
    }

    /// Consumes the stream without a task waiting on it: `wake` is called once now (the first
    /// snapshot is due), then whenever commits that may change the target are published or the
    /// listener ends, once until the next `takeReady()`. It runs on the committing thread and
    /// must return at once (post to a queue, say). Call `takeReady()` after each `wake`.
    ///
    /// A stream is consumed either this way, from one task at a time, or as an `AsyncSequence`,
    /// never both.
    public func onReady(_ wake: @escaping @Sendable () -> Void) {
        registration.onReady(wake)
    }

    /// The next snapshot if there is one now, without waiting: the first call computes the
    /// target's state, later ones reflect the commits published since (see `onReady(_:)`).
    ///
    /// - Throws: `FirestoreError` when the target cannot be read.
    public func takeReady() throws -> ReadySnapshot {
        try registration.takeReady()
    }

    /// What `takeReady()` found.
    public enum ReadySnapshot: Sendable {
        /// A snapshot, as iteration would deliver it.
        case snapshot(ListenSnapshot)
        /// Nothing changed the target since the last snapshot.
        case unchanged
        /// The listener ended (cancelled, or the store is closing).
        case ended
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(registration: registration)
    }

    /// Produces the snapshots; see `ListenerStream`.
    public struct Iterator: AsyncIteratorProtocol {
        let registration: ListenerRegistration

        public mutating func next() async throws -> ListenSnapshot? {
            try await registration.nextSnapshot()
        }
    }
}

/// Owns one registered listener: the result it last delivered, and its removal from the store
/// when cancelled or released.
///
/// Consumers take turns: each `nextSnapshot()` runs alone, in arrival order, so when several
/// tasks iterate one stream at once every snapshot goes to exactly one of them, versions
/// increase from one snapshot to the next whichever task receives it, and each snapshot's
/// changes are relative to the snapshot delivered before it (to any task).
final class ListenerRegistration: Sendable {
    /// What the consumers have been given so far.
    private struct Delivered {
        /// The result last delivered (or the resume baseline); nil before the first snapshot
        /// when there is no baseline.
        var documents: [Document]?
        var version: Int64
        var started = false
    }

    private let store: DocumentStore
    private let listener: Listener
    private let turns = TurnQueue()
    private let delivered: Mutex<Delivered>

    init(store: DocumentStore, listener: Listener, baseline: [Document]?, baselineVersion: Int64) {
        self.store = store
        self.listener = listener
        delivered = Mutex(Delivered(documents: baseline, version: baselineVersion))
    }

    deinit {
        store.listeners.remove(listener)
    }

    func cancel() {
        store.listeners.remove(listener)
    }

    /// The next snapshot, after every `nextSnapshot()` called before this one has returned;
    /// nil once the listener is cancelled (as it is when a waiting consumer's task is).
    func nextSnapshot() async throws -> ListenSnapshot? {
        try await withTaskCancellationHandler {
            try await turns.withTurn { try await snapshotInTurn() }
        } onCancel: { [store, listener] in
            store.listeners.remove(listener)
        }
    }

    func onReady(_ wake: @escaping @Sendable () -> Void) {
        listener.onReady(wake)
    }

    /// The snapshot due now, if any; see `ListenerStream.takeReady()`.
    func takeReady() throws -> ListenerStream.ReadySnapshot {
        // Taken first, so that a commit published from here on calls the hook again.
        let queued = listener.takeQueuedNow()
        let first = delivered.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        let events: [CommitEvent]
        let overflowed: Bool
        switch queued {
        case .finished:
            return .ended
        case _ where first:
            // The first snapshot reads the target: it reflects every commit queued so far.
            let (documents, version) = try store.currentResult(of: listener)
            return deliver(documents, version: version, first: true).map { .snapshot($0) } ?? .unchanged
        case .nothing:
            return .unchanged
        case .commits(let taken, let dropped):
            (events, overflowed) = (taken, dropped)
        }
        let snapshot = try snapshot(after: events, overflowed: overflowed)
        return snapshot.map { .snapshot($0) } ?? .unchanged
    }

    /// The snapshot after `events` (taken from the queue), or nil when they change nothing
    /// delivered yet.
    private func snapshot(after events: [CommitEvent], overflowed: Bool) throws -> ListenSnapshot? {
        let deliveredVersion = delivered.withLock { $0.version }
        let fresh = events.filter { $0.version > deliveredVersion }
        guard overflowed || !fresh.isEmpty else { return nil }
        let documents: [Document]
        let version: Int64
        if case .document = listener.target, !overflowed, let last = fresh.last, let change = last.changes.last {
            documents = change.after.map { [$0] } ?? []
            version = last.version
        } else {
            (documents, version) = try store.currentResult(of: listener)
        }
        return deliver(documents, version: version, first: false)
    }

    private func snapshotInTurn() async throws -> ListenSnapshot? {
        let first = delivered.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        if first {
            let (documents, version) = try store.currentResult(of: listener)
            return deliver(documents, version: version, first: true)
        }
        while true {
            guard let (events, overflowed) = await listener.takeQueued() else { return nil }
            if let snapshot = try snapshot(after: events, overflowed: overflowed) { return snapshot }
        }
    }

    /// Records `documents` as delivered and returns the snapshot for them: always the first
    /// time, later only when something changed.
    private func deliver(_ documents: [Document], version: Int64, first: Bool) -> ListenSnapshot? {
        delivered.withLock { state in
            let changes = SnapshotDiff.changes(from: state.documents ?? [], to: documents, precedes: precedes)
            let isReset = first && state.documents == nil
            state.version = max(state.version, version)
            state.documents = documents
            guard first || !changes.isEmpty else { return nil }
            return ListenSnapshot(
                readTime: Timestamp(microsecondsSinceEpoch: version), documents: documents, changes: changes,
                isReset: isReset)
        }
    }

    private func precedes(_ lhs: Document, _ rhs: Document) -> Bool {
        guard let prepared = listener.prepared else { return lhs.name < rhs.name }
        return QueryOrdering(orders: prepared.orders).compare(lhs, rhs) < 0
    }
}
