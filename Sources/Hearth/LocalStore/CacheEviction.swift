import DocumentModel

/// Which remote entries an over-full cache evicts (see `LocalStore`): those no pending mutation
/// batch writes, oldest read time first, until the size estimate is under 90% of the limit.
package enum CacheEviction {
    /// One remote entry that may be evicted.
    package struct Candidate<Key: Hashable> {
        package var key: Key
        package var readTime: Timestamp
        package var size: Int64

        package init(key: Key, readTime: Timestamp, size: Int64) {
            self.key = key
            self.readTime = readTime
            self.size = size
        }
    }

    /// Whether a cache of `total` bytes is over `limit` (a negative limit: never).
    package static func isOver(_ total: Int64, limit: Int64) -> Bool {
        limit >= 0 && total > limit
    }

    /// The size an eviction brings the estimate under.
    package static func target(limit: Int64) -> Int64 {
        limit / 10 * 9 + limit % 10 * 9 / 10
    }

    /// The candidates to evict, oldest first, from a cache of `total` bytes over `limit`; entries
    /// whose key is in `protected` (written by pending batches) stay.
    package static func victims<Key: Hashable>(
        _ candidates: [Candidate<Key>], protected: Set<Key>, total: Int64, limit: Int64,
        orderedBy tieBreak: (Key, Key) -> Bool
    ) -> [Candidate<Key>] {
        let goal = target(limit: limit)
        var remaining = total
        var chosen: [Candidate<Key>] = []
        let ordered = candidates.filter { !protected.contains($0.key) }.sorted {
            $0.readTime != $1.readTime ? $0.readTime < $1.readTime : tieBreak($0.key, $1.key)
        }
        for candidate in ordered {
            guard remaining >= goal else { break }
            chosen.append(candidate)
            remaining -= candidate.size
        }
        return chosen
    }
}
