/// The expressions coverage reports on, built by the compiler: each with its span, its
/// parent, and the roots (function bodies, allow conditions) in report order.
struct CoverageTable: Sendable {
    struct Entry: Sendable {
        var span: SourceSpan
        var parent: Int32
        var children: [Int32] = []
    }

    var entries: [Entry] = []
    var functionRoots: [Int32] = []
    var conditionRoots: [Int32] = []
    /// Where errors raised by an expression (by its syntax span) are reported.
    var errorSpans: [SourceSpan: SourceSpan] = [:]

    mutating func add(span: SourceSpan, parent: Int32) -> Int32 {
        let id = Int32(entries.count)
        entries.append(Entry(span: span, parent: parent))
        if parent >= 0 { entries[Int(parent)].children.append(id) }
        return id
    }

    /// The ids of an entry and everything below it.
    func subtree(_ id: Int32) -> [Int32] {
        var result: [Int32] = []
        var stack = [id]
        while let next = stack.popLast() {
            result.append(next)
            stack.append(contentsOf: entries[Int(next)].children)
        }
        return result
    }
}

/// The values one evaluation produced, recorded node by node and merged into the ruleset's
/// counters once, at the end, under a single lock.
final class CoverageBuffer {
    enum Event {
        case value(RValue)
        /// Not evaluated because `&&`, `||` or `?:` decided without it.
        case skipped
    }

    var events: [(id: Int32, event: Event)] = []

    init() {
        events.reserveCapacity(64)
    }

    func record(_ id: Int32, _ value: RValue) {
        events.append((id, .value(value)))
    }

    func skip(_ ids: [Int32]) {
        for id in ids { events.append((id, .skipped)) }
    }
}
