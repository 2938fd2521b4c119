/// A stream of encoded document paths in name order (or reverse name order), which several
/// streams can unite or intersect without buffering.
protocol NameOrderedStream: AnyObject {
    /// The path `next()` or `advance` last returned, `nil` before the first or at the end.
    var current: [UInt8]? { get }
    /// Moves to the next path; `nil` at the end.
    func next() throws -> [UInt8]?
    /// The first path at or past `target` in the stream's direction: `current` if it already is,
    /// else the stream moves on to it. `nil` at the end.
    func advance(toAtLeast target: [UInt8]) throws -> [UInt8]?
}

/// Whether `a` comes strictly before `b` in a stream's direction.
private func precedes(_ a: [UInt8], _ b: [UInt8], forward: Bool) -> Bool {
    forward ? a.lexicographicallyPrecedes(b) : b.lexicographicallyPrecedes(a)
}

/// The entries of one value of one field (an equality), or a collection group's document
/// entries: within one value, index keys are in document-name order.
final class PointStream: NameOrderedStream {
    private let scan: IndexRangeScan
    private let forward: Bool
    private var started = false
    private(set) var current: [UInt8]?

    init(_ scan: IndexRangeScan, forward: Bool) {
        self.scan = scan
        self.forward = forward
    }

    func next() throws -> [UInt8]? {
        started = true
        current = try scan.next() ? scan.path : nil
        return current
    }

    func advance(toAtLeast target: [UInt8]) throws -> [UInt8]? {
        if !started { _ = try next() }
        guard let current else { return nil }
        guard precedes(current, target, forward: forward) else { return current }
        scan.seek(toPath: target)
        return try next()
    }
}

/// The paths in any of several streams, each once (for `in`, `array-contains-any` and
/// several name ranges).
final class UnionStream: NameOrderedStream {
    private let children: [any NameOrderedStream]
    private let forward: Bool
    private var heads: [[UInt8]?] = []
    private var started = false
    private(set) var current: [UInt8]?

    init(_ children: [any NameOrderedStream], forward: Bool) {
        self.children = children
        self.forward = forward
    }

    func next() throws -> [UInt8]? {
        if !started {
            heads = try children.map { try $0.next() }
            started = true
        }
        var best: [UInt8]?
        for head in heads {
            guard let head else { continue }
            if best.map({ precedes(head, $0, forward: forward) }) ?? true { best = head }
        }
        guard let best else {
            current = nil
            return nil
        }
        for index in heads.indices where heads[index] == best { heads[index] = try children[index].next() }
        current = best
        return best
    }

    func advance(toAtLeast target: [UInt8]) throws -> [UInt8]? {
        if let current, !precedes(current, target, forward: forward) { return current }
        if started, current == nil { return nil }
        if !started {
            heads = try children.map { try $0.next() }
            started = true
        }
        for index in heads.indices {
            if let head = heads[index], precedes(head, target, forward: forward) {
                heads[index] = try children[index].advance(toAtLeast: target)
            }
        }
        return try next()
    }
}

/// The paths in every one of several streams: a zig-zag join that seeks each stream to the
/// furthest path any of them has reached.
final class IntersectionStream: NameOrderedStream {
    private let children: [any NameOrderedStream]
    private let forward: Bool
    private(set) var current: [UInt8]?

    init(_ children: [any NameOrderedStream], forward: Bool) {
        self.children = children
        self.forward = forward
    }

    func next() throws -> [UInt8]? {
        guard let first = try children[0].next() else {
            current = nil
            return nil
        }
        return try align(first)
    }

    func advance(toAtLeast target: [UInt8]) throws -> [UInt8]? {
        if let current, !precedes(current, target, forward: forward) { return current }
        guard let first = try children[0].advance(toAtLeast: target) else {
            current = nil
            return nil
        }
        return try align(first)
    }

    /// From a path the first stream is on, the first path all streams share.
    private func align(_ start: [UInt8]) throws -> [UInt8]? {
        var candidate = start
        var agreeing = 1
        var index = 0
        while agreeing < children.count {
            index = (index + 1) % children.count
            guard let path = try children[index].advance(toAtLeast: candidate) else {
                current = nil
                return nil
            }
            if path == candidate {
                agreeing += 1
            } else {
                candidate = path
                agreeing = 1
            }
        }
        current = candidate
        return candidate
    }
}
