import DocumentModel

/// `MemoryLocalStore`'s field index (`CacheIndex`): per group, the entries' suffixes in byte
/// order with the document each names.
///
/// Changes are cheap and reads pay for them: an added entry waits in a dictionary and a removed
/// one in a set until the group is next read, which merges them into the sorted array (one sort
/// of the additions and one pass). So filling the cache with many documents sorts once, and a
/// single change costs a pass over its group when read.
struct MemoryFieldIndex {
    private struct Item {
        var suffix: [UInt8]
        var name: DocumentName
    }

    private struct Group {
        /// Sorted by suffix; holds every entry in `removed` and none in `added`.
        var sorted: [Item] = []
        var added: [[UInt8]: DocumentName] = [:]
        var removed: Set<[UInt8]> = []

        var isEmpty: Bool { sorted.count == removed.count && added.isEmpty }

        mutating func compact() {
            if !removed.isEmpty {
                sorted.removeAll { removed.contains($0.suffix) }
                removed.removeAll()
            }
            guard !added.isEmpty else { return }
            let additions = added.map { Item(suffix: $0.key, name: $0.value) }.sorted { $0.suffix.lexicographicallyPrecedes($1.suffix) }
            added.removeAll()
            var merged: [Item] = []
            merged.reserveCapacity(sorted.count + additions.count)
            var old = 0
            var new = 0
            while old < sorted.count || new < additions.count {
                if new == additions.count
                    || (old < sorted.count && sorted[old].suffix.lexicographicallyPrecedes(additions[new].suffix))
                {
                    merged.append(sorted[old])
                    old += 1
                } else {
                    merged.append(additions[new])
                    new += 1
                }
            }
            sorted = merged
        }

        /// The index of the first sorted item not below `bound`.
        func firstIndex(notBelow bound: [UInt8]) -> Int {
            var low = 0
            var high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle].suffix.lexicographicallyPrecedes(bound) { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    private var groups: [[UInt8]: Group] = [:]

    /// The number of entries (for checks).
    var count: Int { groups.values.reduce(0) { $0 + $1.sorted.count - $1.removed.count + $1.added.count } }

    /// Replaces the entries of `old` by those of `new` (one document's versions; either `nil`).
    mutating func update(from old: Document?, to new: Document?) {
        guard let name = new?.name ?? old?.name else { return }
        let (removed, added) = CacheIndex.changes(from: old, to: new)
        for entry in removed {
            if groups[entry.group, default: Group()].added.removeValue(forKey: entry.suffix) == nil {
                groups[entry.group, default: Group()].removed.insert(entry.suffix)
            }
            if groups[entry.group]?.isEmpty == true { groups[entry.group] = nil }
        }
        for entry in added {
            if groups[entry.group, default: Group()].removed.remove(entry.suffix) == nil {
                groups[entry.group, default: Group()].added[entry.suffix] = name
            }
        }
    }

    mutating func removeAll() { groups.removeAll() }

    /// Calls `body` with the documents named by the entries of `group` whose suffixes lie in
    /// `lower ..< upper` (`nil`: the group's end), in suffix order (or its reverse), until it
    /// returns `false`. Returns `false` when `body` stopped the scan.
    mutating func forEachName(
        in group: [UInt8], from lower: [UInt8], to upper: [UInt8]?, reverse: Bool,
        _ body: (DocumentName) throws -> Bool
    ) rethrows -> Bool {
        guard groups[group] != nil else { return true }
        groups[group]!.compact()
        let items = groups[group]!
        let start = items.firstIndex(notBelow: lower)
        let end = upper.map { items.firstIndex(notBelow: $0) } ?? items.sorted.count
        guard start < end else { return true }
        var index = reverse ? end - 1 : start
        while index >= start, index < end {
            guard try body(items.sorted[index].name) else { return false }
            index += reverse ? -1 : 1
        }
        return true
    }
}
