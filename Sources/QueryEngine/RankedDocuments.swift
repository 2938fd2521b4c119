import DocumentModel

/// Documents collected in a query's order: each one's ordered values are read once, and with a
/// bound only the first `keep` documents in order are kept as they arrive (a sorted buffer), so
/// a limited query over many documents sorts few of them.
struct RankedDocuments {
    private struct Entry {
        var key: [Value]
        var document: Document
    }

    private let orders: [Order]
    private let keep: Int?
    private var entries: [Entry] = []
    /// Whether `entries` is sorted (always, once a bound applies).
    private var isSorted = true

    init(orders: [Order], keep: Int?) {
        self.orders = orders
        self.keep = keep
    }

    mutating func add(_ document: Document) {
        let key = orders.map { QueryOrdering.value(of: document, at: $0.field) ?? .null }
        let entry = Entry(key: key, document: document)
        guard let keep else {
            entries.append(entry)
            isSorted = false
            return
        }
        guard keep > 0 else { return }
        if entries.count == keep {
            guard precedes(entry.key, entries[keep - 1].key) else { return }
            entries.removeLast()
        }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(entries[middle].key, key) { low = middle + 1 } else { high = middle }
        }
        entries.insert(entry, at: low)
    }

    /// The documents in order.
    mutating func sorted() -> [Document] {
        if !isSorted {
            var indices = Array(entries.indices)
            indices.sort { precedes(entries[$0].key, entries[$1].key) }
            entries = indices.map { entries[$0] }
            isSorted = true
        }
        return entries.map(\.document)
    }

    /// Whether the values `lhs` come before `rhs` in the orders (the last order is the name, so
    /// distinct documents never tie).
    private func precedes(_ lhs: [Value], _ rhs: [Value]) -> Bool {
        for (index, order) in orders.enumerated() {
            let result = Value.compare(lhs[index], rhs[index])
            if result != 0 { return order.direction == .ascending ? result < 0 : result > 0 }
        }
        return false
    }
}
