import DocumentModel
import Foundation
import Synchronization

extension SyncEngine {
    /// Starts a view of `target`: its first state comes from the cache when the cache knows
    /// something (or the server is away), then from the server.
    func listen(to target: ListenTarget) -> ViewSubscription {
        let mailbox = ViewMailbox()
        let id = state.withLock { state -> Int? in
            guard !state.isTerminated else {
                mailbox.finish(throwing: FirestoreError(.failedPrecondition, "The client has already been terminated."))
                return nil
            }
            let view: LocalView
            do {
                view = try LocalView(target: target, mailbox: mailbox)
            } catch {
                mailbox.finish(throwing: FirestoreError.wrapping(error))
                return nil
            }
            let id = state.nextViewID
            state.nextViewID += 1
            state.views[id] = view
            refreshView(id, changed: nil, &state)
            if state.networkEnabled { state.views[id]?.watch = startWatch(id, target, key: view.targetKey) }
            return id
        }
        return ViewSubscription(engine: self, id: id, mailbox: mailbox)
    }

    /// A subscription that ends at once with `error` (an invalid target).
    func failedSubscription(_ error: any Error) -> ViewSubscription {
        let mailbox = ViewMailbox()
        mailbox.finish(throwing: FirestoreError.wrapping(error))
        return ViewSubscription(engine: self, id: nil, mailbox: mailbox)
    }

    /// Ends a view: its server target is released.
    func stopListening(_ id: Int) {
        let view = state.withLock { state in
            state.disconnectedViews.remove(id)
            return state.views.removeValue(forKey: id)
        }
        view?.watch?.cancel()
        view?.mailbox.finish()
    }

    /// Follows the view's target on the server, resuming from the cache's record of it when
    /// the record is whole.
    func startWatch(_ id: Int, _ target: ListenTarget, key: String) -> Task<Void, Never> {
        let events = backend.watch(target, resuming: resumePoint(target, key), as: identity)
        return Task {
            for await event in events {
                if Task.isCancelled { return }
                handle(event, view: id)
            }
        }
    }

    /// The cache's record of the target `key` with its members' documents, or `nil` when
    /// there is no token or a member's document has left the cache (the target then starts
    /// afresh). A projection's documents are partial and not cached: it always starts afresh.
    private func resumePoint(_ target: ListenTarget, _ key: String) -> WatchResume? {
        if case .query(let model) = target, model.structured.select != nil { return nil }
        do {
            guard let record = try store.target(key), !record.resumeToken.isEmpty else { return nil }
            var documents: [Document] = []
            documents.reserveCapacity(record.members.count)
            for name in record.members {
                guard let document = try store.entry(name)?.document else { return nil }
                documents.append(document)
            }
            return WatchResume(resumeToken: record.resumeToken, documents: documents)
        } catch {
            logLocalStoreFailure(error)
            return nil
        }
    }

    private func handle(_ event: WatchEvent, view id: Int) {
        switch event {
        case .snapshot(let snapshot):
            let limbo = apply(snapshot, view: id)
            if !limbo.isEmpty { Task { await resolveLimbo(limbo, view: id) } }
        case .disconnected:
            state.withLock { state in
                guard state.views[id] != nil else { return }
                state.views[id]?.isCurrent = false
                state.disconnectedViews.insert(id)
                // The server is away: every view now shows cached data.
                for other in state.views.keys {
                    guard var view = state.views[other] else { continue }
                    publish(&view, state)
                    state.views[other] = view
                }
            }
        case .failed(let error):
            let view = state.withLock { state in
                state.disconnectedViews.remove(id)
                return state.views.removeValue(forKey: id)
            }
            view?.mailbox.finish(throwing: error)
        }
    }

    /// Takes a consistent snapshot of the view's target into the cache and the views; returns
    /// the view's limbo documents: shown by the view, absent from the server's target, with
    /// no pending write and nothing newer in the cache than the snapshot.
    private func apply(_ snapshot: WatchSnapshot, view id: Int) -> [DocumentName] {
        state.withLock { state -> [DocumentName] in
            guard var view = state.views[id] else { return [] }
            var change = LocalStoreChange()
            var changed = Set<DocumentName>()
            do {
                // A projection's documents are partial: the cache keeps whole documents only.
                if case .query(let model) = view.target, model.structured.select != nil {
                } else {
                    var documents: [DocumentName: Document?] = [:]
                    for document in snapshot.documents { documents[document.name] = .some(document) }
                    for (name, document) in snapshot.observed where documents[name] == nil { documents[name] = .some(document) }
                    if case .document(let name) = view.target, snapshot.documents.isEmpty { documents[name] = .some(nil) }
                    changed = try record(documents, readTime: snapshot.readTime, into: &change)
                }
                change.targets[view.targetKey] = .some(
                    TargetRecord(
                        resumeToken: snapshot.resumeToken, snapshotVersion: snapshot.readTime,
                        members: snapshot.documents.map(\.name)))
                try apply(change, &state)
            } catch {
                logLocalStoreFailure(error)
            }
            view.members = Set(snapshot.documents.map(\.name))
            view.snapshotReadTime = snapshot.readTime
            view.isCurrent = true
            state.views[id] = view
            state.disconnectedViews.remove(id)
            for other in state.views.keys where other != id { refreshView(other, changed: changed, &state) }
            // This view is published once its limbo documents are known: it stays from the
            // cache while they are looked up.
            refreshView(id, changed: changed, publishing: false, &state)
            let limbo = claimLimbo(of: id, olderThan: snapshot.readTime, orAsOld: true, &state)
            publish(id, &state)
            return limbo
        }
    }

    /// The view's limbo documents not already being looked up, now marked as being looked up:
    /// shown by the view, absent from the server's target at its last snapshot, with no pending
    /// write, and known to the cache only from before that snapshot (or from its very time,
    /// when `orAsOld`: a newer answer than the snapshot's is then not asked for again).
    func claimLimbo(
        of id: Int, olderThan readTime: Timestamp, orAsOld: Bool, _ state: inout State
    ) -> [DocumentName] {
        guard let view = state.views[id], case .query = view.target else { return [] }
        let limbo = view.documents.map(\.name).filter { name in
            guard !view.members.contains(name), !state.pending.touches(name), !view.resolving.contains(name)
            else { return false }
            let known = ((try? store.entry(name)) ?? nil)?.readTime ?? .min
            return known < readTime || (orAsOld && known == readTime)
        }
        state.views[id]?.resolving.formUnion(limbo)
        return limbo
    }

    /// Looks up limbo documents on the server and takes what it says into the cache, so a
    /// document deleted (or changed) while this instance was away leaves the views.
    ///
    /// A snapshot that arrived while the lookup ran may have put a document in limbo again:
    /// the view is checked once more against its latest snapshot, strictly (an answer as new as
    /// the snapshot is not asked for again).
    func resolveLimbo(_ names: [DocumentName], view id: Int) async {
        let result = try? await backend.lookup(names, transaction: nil, as: identity)
        let again = state.withLock { state -> [DocumentName] in
            state.views[id]?.resolving.subtract(names)
            guard let (readTime, documents) = result else {
                publish(id, &state)
                return []
            }
            var change = LocalStoreChange()
            do {
                let changed = try record(
                    Dictionary(uniqueKeysWithValues: zip(names, documents)), readTime: readTime, into: &change)
                try apply(change, &state)
                refreshViews(changed: changed, &state)
            } catch {
                logLocalStoreFailure(error)
            }
            guard let snapshotReadTime = state.views[id]?.snapshotReadTime else { return [] }
            let again = claimLimbo(of: id, olderThan: snapshotReadTime, orAsOld: false, &state)
            // With nothing left to look up, the view may now be current.
            publish(id, &state)
            return again
        }
        if !again.isEmpty { await resolveLimbo(again, view: id) }
    }

    /// Hands the view `id`'s state to its consumer if it changed (its metadata included).
    private func publish(_ id: Int, _ state: inout State) {
        guard var view = state.views[id] else { return }
        publish(&view, state)
        state.views[id] = view
    }

    /// Once pending writes leave the queue (acknowledged or rejected), a document they kept in
    /// a view may be one the server's target no longer holds (deleted meanwhile, say, when a
    /// rejected write showed it): every query view is checked for limbo documents again, and
    /// those are looked up.
    func resolveLimboAfterWrites(_ state: inout State) {
        for id in state.views.keys {
            guard let readTime = state.views[id]?.snapshotReadTime else { continue }
            let limbo = claimLimbo(of: id, olderThan: readTime, orAsOld: true, &state)
            if !limbo.isEmpty {
                publish(id, &state)  // from the cache until they are looked up
                Task { await resolveLimbo(limbo, view: id) }
            }
        }
    }

    // MARK: Network

    /// Stops talking to the server: views show the cache (`isFromCache`), writes queue up.
    func disableNetwork() {
        state.withLock { state in
            guard state.networkEnabled else { return }
            state.networkEnabled = false
            for id in state.views.keys {
                guard var view = state.views[id] else { continue }
                view.watch?.cancel()
                view.watch = nil
                view.isCurrent = false
                publish(&view, state)
                state.views[id] = view
            }
            state.disconnectedViews = []
        }
    }

    /// Talks to the server again: views listen again, queued writes are sent in order.
    func enableNetwork() {
        state.withLock { state in
            guard !state.networkEnabled, !state.isTerminated else { return }
            state.networkEnabled = true
            for (id, view) in state.views { state.views[id]?.watch = startWatch(id, view.target, key: view.targetKey) }
            kickWriter(&state)
        }
    }
}

/// A consumer's hold on a view: the view ends when the subscription is released.
final class ViewSubscription: Sendable {
    let mailbox: ViewMailbox
    private let engine: SyncEngine
    private let id: Int?

    init(engine: SyncEngine, id: Int?, mailbox: ViewMailbox) {
        self.engine = engine
        self.id = id
        self.mailbox = mailbox
    }

    deinit {
        if let id { engine.stopListening(id) }
    }
}
