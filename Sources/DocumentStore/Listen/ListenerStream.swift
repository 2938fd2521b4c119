import DocumentModel

/// A listener's snapshots as an `AsyncSequence`: first the target's full state, then one
/// snapshot per batch of commits that changed it. Iteration ends when the listener is
/// cancelled (`cancel()`, the consuming task is cancelled, or the stream is released).
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
final class ListenerRegistration: @unchecked Sendable {
    private let store: DocumentStore
    private let listener: Listener
    /// The result last delivered (or the resume baseline); touched only by the consumer, one
    /// `next()` at a time, as `AsyncIteratorProtocol` requires.
    private var delivered: [Document]?
    private var deliveredVersion: Int64
    private var started = false

    init(store: DocumentStore, listener: Listener, baseline: [Document]?, baselineVersion: Int64) {
        self.store = store
        self.listener = listener
        delivered = baseline
        deliveredVersion = baselineVersion
    }

    deinit {
        store.listeners.remove(listener)
    }

    func cancel() {
        store.listeners.remove(listener)
    }

    func nextSnapshot() async throws -> ListenSnapshot? {
        if !started {
            started = true
            let (documents, version) = try store.currentResult(of: listener)
            return deliver(documents, version: version, isReset: delivered == nil, always: true)
        }
        while true {
            guard let (events, overflowed) = await withTaskCancellationHandler(
                operation: { await listener.takeQueued() }, onCancel: { [store, listener] in store.listeners.remove(listener) })
            else { return nil }
            let fresh = events.filter { $0.version > deliveredVersion }
            guard overflowed || !fresh.isEmpty else { continue }
            let documents: [Document]
            let version: Int64
            if case .document = listener.target, !overflowed, let last = fresh.last, let change = last.changes.last {
                documents = change.after.map { [$0] } ?? []
                version = last.version
            } else {
                (documents, version) = try store.currentResult(of: listener)
            }
            if let snapshot = deliver(documents, version: version, isReset: false, always: false) { return snapshot }
        }
    }

    private func deliver(_ documents: [Document], version: Int64, isReset: Bool, always: Bool) -> ListenSnapshot? {
        let previous = delivered ?? []
        let changes = SnapshotDiff.changes(from: previous, to: documents, precedes: precedes)
        deliveredVersion = max(deliveredVersion, version)
        delivered = documents
        guard always || !changes.isEmpty else { return nil }
        return ListenSnapshot(
            readTime: Timestamp(microsecondsSinceEpoch: version), documents: documents, changes: changes,
            isReset: isReset)
    }

    private func precedes(_ lhs: Document, _ rhs: Document) -> Bool {
        guard let prepared = listener.prepared else { return lhs.name < rhs.name }
        return QueryOrdering(orders: prepared.orders).compare(lhs, rhs) < 0
    }
}
