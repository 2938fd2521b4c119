import DocumentModel
import QueryEngine
import Synchronization

extension SyncEngine {
    /// A document read from `source`, with pending writes applied, and whether it came from
    /// the cache.
    func getDocument(_ name: DocumentName, source: FirestoreSource) async throws -> (LocalOverlay, isFromCache: Bool) {
        if try readsFromCache(source) { return (try cachedDocument(name), true) }
        do {
            let (readTime, documents) = try await backend.lookup([name], transaction: nil, as: identity)
            let overlay = try state.withLock { state in
                var change = LocalStoreChange()
                let changed = try record([name: documents[0]], readTime: readTime, into: &change)
                try apply(change, &state)
                refreshViews(changed: changed, &state)
                return try self.overlay(name, &state).overlay
            }
            return (overlay, false)
        } catch let error as FirestoreError where error.code == .unavailable && source == .default {
            return (try cachedDocument(name), true)
        }
    }

    private func cachedDocument(_ name: DocumentName) throws -> LocalOverlay {
        let (overlay, isKnown) = try state.withLock { try self.overlay(name, &$0) }
        guard isKnown else {
            throw FirestoreError(
                .unavailable,
                "Failed to get document from cache. (However, this document may exist on the server. Run again "
                    + "without setting source to FirestoreSourceCache to attempt to retrieve the document from the server.)")
        }
        return overlay
    }

    /// A query's results from `source`, with pending writes applied, in the query's order, and
    /// whether they came from the cache.
    func runQuery(_ model: DocumentModel.Query, source: FirestoreSource) async throws
        -> (documents: [LocalDocument], isFromCache: Bool)
    {
        let view = try QueryView(model)
        if try readsFromCache(source) { return (try cachedResults(model, view), true) }
        do {
            let (readTime, documents) = try await backend.runQuery(model, transaction: nil, as: identity)
            let results = try state.withLock { state in
                var candidates: [DocumentName: LocalDocument] = [:]
                var hasPendingWrites = false
                if model.structured.select == nil {
                    var change = LocalStoreChange()
                    let changed = try record(
                        Dictionary(documents.map { ($0.name, Optional($0)) }, uniquingKeysWith: { first, _ in first }),
                        readTime: readTime, into: &change)
                    try apply(change, &state)
                    refreshViews(changed: changed, &state)
                    // The server's answer with this instance's pending writes applied.
                    for name in Array(state.pending.names) where view.inScope(name) {
                        if !hasPendingWrites {
                            for document in documents { candidates[document.name] = LocalDocument(document) }
                            hasPendingWrites = true
                        }
                        candidates[name] = try overlay(name, &state).overlay.localDocument
                    }
                }
                // Without pending writes, the server's answer as it came (already in order).
                return hasPendingWrites ? self.results(view, candidates) : documents.map { LocalDocument($0) }
            }
            return (results, false)
        } catch let error as FirestoreError where error.code == .unavailable && source == .default {
            return (try cachedResults(model, view), true)
        }
    }

    private func cachedResults(_ model: DocumentModel.Query, _ view: QueryView) throws -> [LocalDocument] {
        try state.withLock { state in results(view, try cachedCandidates(model, view, &state)) }
    }

    /// Whether a read from `source` answers from the cache without asking the server: always
    /// for `.cache`, while the server is known to be away for `.default`.
    ///
    /// - Throws: `.unavailable` for `.server` while the network is disabled.
    private func readsFromCache(_ source: FirestoreSource) throws -> Bool {
        let (enabled, offline) = state.withLock { ($0.networkEnabled, $0.isOffline) }
        switch source {
        case .cache: return true
        case .default: return offline
        case .server:
            guard enabled else {
                throw FirestoreError(.unavailable, "Failed to get the data from the server: the network is disabled.")
            }
            return false
        }
    }

    /// Records documents read in a transaction.
    func recordRead(_ documents: [DocumentName: Document?], readTime: Timestamp) {
        state.withLock { state in
            var change = LocalStoreChange()
            do {
                let changed = try record(documents, readTime: readTime, into: &change)
                try apply(change, &state)
                refreshViews(changed: changed, &state)
            } catch {
                logLocalStoreFailure(error)
            }
        }
    }

    /// Records the writes a transaction committed.
    func recordCommitted(_ writes: [Write], _ report: CommitReport) {
        state.withLock { state in
            var change = LocalStoreChange()
            do {
                let changed = try recordCommitted(writes, report, into: &change)
                try apply(change, &state)
                refreshViews(changed: changed, &state)
            } catch {
                logLocalStoreFailure(error)
            }
        }
    }

    /// Fails with `.unavailable` while the server is known to be away: transactions need it.
    func requireServer() throws {
        guard !state.withLock({ $0.isOffline }) else {
            throw FirestoreError(.unavailable, "Transactions need the server, and it cannot be reached (or the network is disabled).")
        }
    }
}
