import DocumentModel
import QueryEngine
import Synchronization

/// The listeners of a store, indexed so that publishing a commit touches only the listeners
/// it can affect: document targets by document name, query targets by database and
/// collection id (collection groups included; kindless queries under the empty id).
final class ListenerRegistry: Sendable {
    private struct GroupKey: Hashable {
        let database: DatabaseID
        let collectionID: String
    }

    private struct State {
        var nextID: UInt64 = 0
        var listeners: [UInt64: Listener] = [:]
        var byDocument: [DocumentName: [UInt64: Listener]] = [:]
        var byGroup: [GroupKey: [UInt64: Listener]] = [:]
    }

    private let state = Mutex(State())
    private let count = Atomic<Int>(0)

    /// Whether any listener is registered (checked before building a commit's event).
    var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    /// Registers a listener for `target`.
    func register(_ target: ListenTarget, prepared: PreparedQuery?) -> Listener {
        state.withLock { state in
            state.nextID += 1
            let listener = Listener(id: state.nextID, target: target, prepared: prepared)
            state.listeners[listener.id] = listener
            switch target {
            case .document(let name):
                state.byDocument[name, default: [:]][listener.id] = listener
            case .query(let query):
                let key = GroupKey(database: query.database, collectionID: query.structured.from.collectionID)
                state.byGroup[key, default: [:]][listener.id] = listener
            }
            count.add(1, ordering: .releasing)
            return listener
        }
    }

    /// Removes a listener and ends it. Releases everything it held.
    func remove(_ listener: Listener) {
        state.withLock { state in
            guard state.listeners.removeValue(forKey: listener.id) != nil else { return }
            switch listener.target {
            case .document(let name):
                state.byDocument[name]?[listener.id] = nil
                if state.byDocument[name]?.isEmpty == true { state.byDocument[name] = nil }
            case .query(let query):
                let key = GroupKey(database: query.database, collectionID: query.structured.from.collectionID)
                state.byGroup[key]?[listener.id] = nil
                if state.byGroup[key]?.isEmpty == true { state.byGroup[key] = nil }
            }
            count.subtract(1, ordering: .releasing)
        }
        listener.finish()
    }

    /// Hands a commit to every listener it can affect. Called in commit order, after the
    /// commit is durable; never waits for a consumer.
    func publish(_ event: CommitEvent) {
        var affected: [UInt64: (Listener, [DocumentChangeRecord])] = [:]
        state.withLock { state in
            for change in event.changes {
                let database = change.name.databaseID
                var candidates: [Listener] = []
                if let watchers = state.byDocument[change.name] { candidates.append(contentsOf: watchers.values) }
                let group = GroupKey(database: database, collectionID: change.name.collectionID)
                if let queries = state.byGroup[group] { candidates.append(contentsOf: queries.values) }
                if let kindless = state.byGroup[GroupKey(database: database, collectionID: "")] {
                    candidates.append(contentsOf: kindless.values)
                }
                for listener in candidates where listener.isAffected(by: change.name) {
                    affected[listener.id, default: (listener, [])].1.append(change)
                }
            }
        }
        for (listener, changes) in affected.values {
            listener.enqueue(CommitEvent(version: event.version, changes: changes))
        }
    }

    /// Ends every listener (the store is closing).
    func removeAll() {
        let all = state.withLock { state in
            defer {
                state.listeners = [:]
                state.byDocument = [:]
                state.byGroup = [:]
                count.store(0, ordering: .releasing)
            }
            return Array(state.listeners.values)
        }
        for listener in all { listener.finish() }
    }

    /// The number of registered listeners.
    var registeredCount: Int { count.load(ordering: .acquiring) }
}
