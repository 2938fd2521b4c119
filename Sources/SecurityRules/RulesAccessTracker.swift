import Synchronization

/// Shares the document-read limit among the evaluations of one batched write or transaction:
/// pass the same tracker to `Ruleset.evaluate` for each of its writes, and the rules of all
/// writes together may read at most ``RulesRequest/AccessScope/multipleDocuments``'s limit of
/// distinct documents.
///
/// - Important: A tracker is for one batch; create a new one for the next.
package final class RulesAccessTracker: Sendable {
    private let keys = Mutex<Set<String>>([])

    /// Creates an empty tracker.
    package init() {}

    /// The number of distinct reads recorded so far.
    package var count: Int { keys.withLock { $0.count } }

    /// Records a read; returns whether it is within `limit` (a read already recorded always is).
    func record(_ key: String, limit: Int) -> Bool {
        keys.withLock { keys in
            if keys.contains(key) { return true }
            guard keys.count < limit else { return false }
            keys.insert(key)
            return true
        }
    }
}
