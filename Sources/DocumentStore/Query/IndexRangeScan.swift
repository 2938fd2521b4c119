import DocumentModel
import QueryEngine
import LevelDB

/// Reads the index entries of one field (one kind) whose values lie in a `ValueRanges`, in key
/// order or reverse key order, keeping those whose document lies in the query's scope.
///
/// Entries of one value are in document-path order, so the scan yields (value, then name)
/// order, forwards or backwards. A collection group's entries include every collection of that
/// id; for a query of one collection the scan seeks, within each value, straight to the
/// collection's paths and past the others, so nested collections of the same id cost a seek
/// per value rather than a read per entry.
final class IndexRangeScan {
    private let cursor: Cursor
    private let fieldPrefix: [UInt8]
    private let intervals: [ValueRanges.Interval]
    private let scope: QueryScope
    private let pathBounds: PathBounds
    private let forward: Bool
    private var intervalIndex = -1
    private var intervalLowerKey: [UInt8] = []
    private var intervalUpperKey: [UInt8] = []
    /// Whether the cursor is still on the entry `next()` last returned.
    private var needsStep = false

    /// The current entry's encoded value and encoded document path (valid after `next()`
    /// returned true).
    private(set) var value: ArraySlice<UInt8> = []
    private(set) var path: [UInt8] = []

    init(
        _ reader: SnapshotReader, scope: QueryScope, field: FieldPath, kind: IndexKind, ranges: ValueRanges,
        pathBounds: PathBounds = .all, direction: Order.Direction
    ) throws {
        cursor = try reader.makeCursor()
        forward = direction == .ascending
        if let groupPrefix = try reader.indexGroupPrefix(scope.collectionID) {
            fieldPrefix = StorageKeys.indexFieldPrefix(groupPrefix: groupPrefix, field: field, kind: kind)
            intervals = forward ? ranges.intervals : ranges.intervals.reversed()
        } else {
            // The group was never indexed (as of the snapshot): it has no entries.
            fieldPrefix = []
            intervals = []
        }
        self.scope = scope
        // Documents in scope start with the scope's path prefix.
        self.pathBounds = pathBounds.intersection(PathBounds(prefix: scope.pathPrefix))
    }

    /// Moves to the next entry in range and scope; false at the end.
    func next() throws -> Bool {
        if needsStep { step() }
        needsStep = true
        while true {
            if intervalIndex < 0 || !inInterval() {
                intervalIndex += 1
                guard intervalIndex < intervals.count else {
                    try cursor.checkError()
                    return false
                }
                let interval = intervals[intervalIndex]
                intervalLowerKey = fieldPrefix + interval.lower
                intervalUpperKey = interval.upper.map { fieldPrefix + $0 } ?? KeyRange.successor(ofPrefix: fieldPrefix)!
                if forward { cursor.seek(to: intervalLowerKey) } else { positionBefore(intervalUpperKey) }
                continue
            }
            let key = cursor.key
            let valueEnd = try key.withUnsafeBytes { try EncodedKeyParsing.valueEnd(in: $0, from: fieldPrefix.count) }
            let entryPath = Array(key[valueEnd...])
            switch pathBounds.position(of: entryPath) {
            case .before:
                // To this value's first path in bounds, or (backwards) to the previous value.
                let valuePrefix = Array(key[..<valueEnd])
                if forward { cursor.seek(to: valuePrefix + pathBounds.lower) } else { positionBefore(valuePrefix) }
            case .after:
                // To the next value, or (backwards) to this value's last path in bounds.
                let valuePrefix = Array(key[..<valueEnd])
                if forward {
                    guard let next = KeyRange.successor(ofPrefix: valuePrefix) else { return false }
                    cursor.seek(to: next)
                } else {
                    positionBefore(valuePrefix + (pathBounds.upper ?? []))
                }
            case .inside:
                guard try entryPath.withUnsafeBytes({ try scope.contains(encodedPath: $0) }) else {
                    step()
                    continue
                }
                value = key[fieldPrefix.count..<valueEnd]
                path = entryPath
                return true
            }
        }
    }

    /// Repositions within the current value (after `next()` returned true): forwards at the
    /// first entry whose path is at least `target`, backwards at the last whose path is at most
    /// `target`; the following `next()` starts there. Name-ordered scans of one value use it to
    /// intersect streams.
    func seek(toPath target: [UInt8]) {
        let valuePrefix = fieldPrefix + value
        if forward {
            cursor.seek(to: valuePrefix + target)
        } else {
            positionBefore(KeyRange.successor(ofPrefix: valuePrefix + target) ?? valuePrefix + target)
        }
        needsStep = false
    }

    private func inInterval() -> Bool {
        guard cursor.isValid else { return false }
        return forward ? cursor.compareKey(to: intervalUpperKey) < 0 : cursor.compareKey(to: intervalLowerKey) >= 0
    }

    private func step() {
        guard cursor.isValid else { return }
        if forward { cursor.next() } else { cursor.previous() }
    }

    /// Moves to the last key before `key`.
    private func positionBefore(_ key: [UInt8]) {
        cursor.seek(to: key)
        if cursor.isValid { cursor.previous() } else { cursor.seekToLast() }
    }
}

/// Bounds on encoded document paths, `lower ..< upper` (`upper == nil`: no end).
struct PathBounds: Sendable {
    var lower: [UInt8]
    var upper: [UInt8]?

    static let all = PathBounds(lower: [], upper: nil)

    /// Every path that starts with `prefix`.
    init(prefix: [UInt8]) {
        lower = prefix
        upper = prefix.isEmpty ? nil : KeyRange.successor(ofPrefix: prefix)
    }

    init(lower: [UInt8], upper: [UInt8]?) {
        self.lower = lower
        self.upper = upper
    }

    enum Position { case before, inside, after }

    func position(of path: [UInt8]) -> Position {
        if path.lexicographicallyPrecedes(lower) { return .before }
        if let upper, !path.lexicographicallyPrecedes(upper) { return .after }
        return .inside
    }

    func intersection(_ other: PathBounds) -> PathBounds {
        let lower = lower.lexicographicallyPrecedes(other.lower) ? other.lower : lower
        let upper: [UInt8]? =
            switch (upper, other.upper) {
            case (nil, let bound), (let bound, nil): bound
            case (let a?, let b?): a.lexicographicallyPrecedes(b) ? a : b
            }
        return PathBounds(lower: lower, upper: upper)
    }

    var isEmpty: Bool { upper.map { !lower.lexicographicallyPrecedes($0) } ?? false }
}
