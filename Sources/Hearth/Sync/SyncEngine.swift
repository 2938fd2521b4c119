import DocumentModel
import Foundation
import QueryEngine
import Synchronization

/// The local side of a `Firestore` instance, as the Firebase SDKs' sync engine: a local cache
/// of what the server sent, a mutation queue of writes not yet acknowledged, and the views of
/// the instance's listeners, computed from the cache with the pending writes applied.
///
/// - Writes are queued (durably with a persistent cache), shown at once to every listener whose
///   view they touch (`hasPendingWrites`), and sent in order, one `Commit` per batch, by the
///   writer task. A transient failure (the server unreachable) keeps the batch and retries
///   after a backoff; any other failure removes it, and its effects leave the views.
/// - Each view follows its target on the server (`Backend.watch`); a consistent snapshot
///   updates the cache, makes the view current, and resolves the documents the view shows but
///   the server's target does not (limbo documents) with a lookup.
/// - Reads answer from the server and fall back to the cache, or from the cache alone.
///
/// State lives behind one lock; the local store is called under it (its calls are short), the
/// server never is.
final class SyncEngine: Sendable {
    let backend: any Backend
    let database: DatabaseID
    let identity: Identity
    let store: any LocalStore
    /// The persistent cache, `nil` for a memory cache.
    let persistence: (any LocalStoreProvider)?
    let state: Mutex<State>
    private let writer = Mutex<Task<Void, Never>?>(nil)

    struct State {
        /// Batches not yet acknowledged, in order, and the documents' overlays.
        var pending: PendingWrites
        var views: [Int: LocalView] = [:]
        var nextViewID = 0
        var networkEnabled = true
        /// Views whose connection to the server is broken, and whether the writer is waiting
        /// to retry: either means the server is away.
        var disconnectedViews: Set<Int> = []
        var writerIsRetrying = false
        /// Batches whose caller is waiting for the server's answer, and the answers that
        /// arrived before the caller started waiting.
        var awaited: Set<Int64> = []
        var acknowledgementWaiters: [Int64: CheckedContinuation<CommitReport, any Error>] = [:]
        var outcomes: [Int64: Result<CommitReport, FirestoreError>] = [:]
        /// `waitForPendingWrites()` callers, with the last batch each waits for.
        var drainWaiters: [(upTo: Int64, continuation: CheckedContinuation<Void, Never>)] = []
        var failureListeners: [Int: @Sendable (WriteFailure) -> Void] = [:]
        var nextFailureListenerID = 0
        /// The writer waiting for work, and whether work arrived since it last looked.
        var writerWake: CheckedContinuation<Void, Never>?
        var writerKicked = false
        /// Whether a batch is being sent (by the writer, or inline by the call that queued it).
        var isSending = false
        var isTerminated = false

        var isOffline: Bool { !networkEnabled || !disconnectedViews.isEmpty || writerIsRetrying }
    }

    init(backend: any Backend, database: DatabaseID, identity: Identity, cacheSettings: any LocalCacheSettings) throws {
        self.backend = backend
        self.database = database
        self.identity = identity
        persistence = cacheSettings as? any LocalStoreProvider
        store = try persistence?.openLocalStore() ?? MemoryLocalStore()
        state = Mutex(State(pending: PendingWrites(try store.mutationBatches())))
        writer.withLock { $0 = Task { await self.runWriter() } }
    }

    /// Stops the writer and every view, and closes the cache. Writes not yet acknowledged stay
    /// in a persistent cache for the next instance; their callers get `.unavailable`.
    func terminate() async {
        let (views, waiters, drains) = state.withLock { state in
            state.isTerminated = true
            kickWriter(&state)
            defer {
                state.views = [:]
                state.acknowledgementWaiters = [:]
                state.drainWaiters = []
                // The kept overlays go with the queue: a read after this one finds the cache
                // closed, as it would without them.
                state.pending = PendingWrites([])
            }
            return (Array(state.views.values), Array(state.acknowledgementWaiters.values), state.drainWaiters)
        }
        for view in views {
            view.watch?.cancel()
            view.mailbox.finish()
        }
        let error = FirestoreError(
            .unavailable,
            "The Firestore instance was terminated before the server acknowledged the write"
                + (persistence == nil ? "; the write is lost." : "; it stays queued in the persistent cache."))
        for waiter in waiters { waiter.resume(throwing: error) }
        for drain in drains { drain.continuation.resume() }
        let task = writer.withLock { $0 }
        task?.cancel()
        await task?.value
        try? store.close()
    }

    /// Ends the writer of an instance dropped without `terminate()` (its `Firestore` is being
    /// freed): the writer's task holds the engine, so without this neither would ever be freed
    /// (found by LeakSanitizer, `scripts/test-swift address`). Queued batches stay in a persistent
    /// cache for the next instance, as after `terminate()`.
    func endWriter() {
        state.withLock { state in
            state.isTerminated = true
            kickWriter(&state)
        }
        writer.withLock { $0?.cancel() }
    }

    var isTerminated: Bool { state.withLock { $0.isTerminated } }

    // MARK: The local view of documents

    /// A document's cached state with every pending write applied.
    func overlay(_ name: DocumentName, _ state: inout State) throws -> (overlay: LocalOverlay, isKnown: Bool) {
        if state.pending.touches(name) {
            return (try state.pending.overlay(name) { try store.entry(name)?.document }, true)
        }
        let entry = try store.entry(name)
        return (LocalOverlay(entry?.document), entry != nil)
    }

    /// Writes `change` to the local store; the overlays of the documents whose entries it
    /// writes are computed again when next asked for.
    func apply(_ change: LocalStoreChange, _ state: inout State) throws {
        state.pending.forget(change.entries.keys)
        try store.apply(change)
    }

    /// The cached documents a query may return, with pending writes applied, by name.
    ///
    /// Documents no pending write touches come from the cache's field index when it can narrow
    /// the query (`CacheIndexScan`: with a limit, only the first ones in the query's order that
    /// match), else from a scan of the collection; every document a pending write touches is a
    /// candidate, with the writes applied.
    func cachedCandidates(_ model: DocumentModel.Query, _ view: QueryView, _ state: inout State) throws
        -> [DocumentName: LocalDocument]
    {
        let touched = Set(state.pending.names.filter { view.inScope($0) })
        var candidates: [DocumentName: LocalDocument] = [:]
        let from = model.structured.from
        let cached =
            if let scan = CacheIndexScan(view) {
                try store.documents(
                    indexedBy: scan, including: { view.inScope($0) && !touched.contains($0) }, accepting: view.matches)
            } else {
                try store.documents(
                    in: model.database, parent: model.parent, collectionID: from.collectionID,
                    allDescendants: from.allDescendants
                ).filter { !touched.contains($0.name) }
            }
        for document in cached {
            candidates[document.name] = LocalDocument(document)
        }
        for name in touched {
            if let local = try overlay(name, &state).overlay.localDocument { candidates[name] = local }
        }
        return candidates
    }

    /// The query's answer over `candidates`, keeping each document's local metadata.
    func results(_ view: QueryView, _ candidates: [DocumentName: LocalDocument]) -> [LocalDocument] {
        view.results(from: candidates.values.lazy.map(\.document)).map { document in
            let local = candidates[document.name]
            return LocalDocument(
                document, hasPendingWrites: local?.hasPendingWrites ?? false,
                pendingServerTimestamps: local?.pendingServerTimestamps ?? [:])
        }
    }

    /// Records what the server said of documents at `readTime`, unless the cache already holds
    /// something newer; returns the names recorded.
    @discardableResult
    func record(_ documents: [DocumentName: Document?], readTime: Timestamp, into change: inout LocalStoreChange) throws
        -> Set<DocumentName>
    {
        var recorded = Set<DocumentName>()
        for (name, document) in documents {
            if let existing = try store.entry(name), existing.readTime > readTime { continue }
            change.entries[name] = RemoteEntry(document: document, readTime: readTime)
            recorded.insert(name)
        }
        return recorded
    }

    // MARK: Views

    /// Recomputes every view that `changed` may touch (all of them for `nil`) and hands new
    /// states to their consumers.
    func refreshViews(changed: Set<DocumentName>?, _ state: inout State) {
        for id in state.views.keys { refreshView(id, changed: changed, &state) }
    }

    /// Recomputes one view and, when `publishing`, hands its new state to the consumer; a
    /// failure of the local store ends it with the error.
    func refreshView(_ id: Int, changed: Set<DocumentName>?, publishing: Bool = true, _ state: inout State) {
        guard var view = state.views[id] else { return }
        do {
            switch view.target {
            case .document(let name):
                if let changed, !changed.contains(name) { break }
                let (overlay, _) = try self.overlay(name, &state)
                view.documents = overlay.localDocument.map { [$0] } ?? []
                view.documentHasPendingWrites = overlay.hasPendingWrites
            case .query(let model):
                let query = view.query!
                if let changed, changed.isEmpty { break }
                var candidates: [DocumentName: LocalDocument]
                if let changed, view.isIncremental {
                    candidates = [:]
                    for document in view.documents where !changed.contains(document.name) {
                        candidates[document.name] = document
                    }
                    for name in changed where query.inScope(name) {
                        if let local = try overlay(name, &state).overlay.localDocument { candidates[name] = local }
                    }
                } else {
                    candidates = try cachedCandidates(model, query, &state)
                }
                view.documents = results(query, candidates)
            }
        } catch {
            state.views[id] = nil
            state.disconnectedViews.remove(id)
            view.watch?.cancel()
            view.mailbox.finish(throwing: FirestoreError.wrapping(error))
            return
        }
        if publishing { publish(&view, state) }
        state.views[id] = view
    }

    /// Hands the view's state to its consumer when it changed, and, for the first state, once
    /// there is something worth showing: a current target, documents from the cache, a known
    /// document, or no network to wait for.
    func publish(_ view: inout LocalView, _ state: State) {
        let viewState = view.state(networkEnabled: state.networkEnabled)
        if view.published == nil {
            let known: Bool
            if case .document(let name) = view.target {
                known = view.documentHasPendingWrites || ((try? store.entry(name)) ?? nil) != nil
            } else {
                known = !view.documents.isEmpty
            }
            guard view.isCurrent || known || state.isOffline else { return }
        }
        guard viewState != view.published else { return }
        view.published = viewState
        view.mailbox.publish(viewState)
    }
}
