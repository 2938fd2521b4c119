import DocumentModel

/// How two values are compared for equality. The rules language uses two notions:
/// - `numeric`, for `==` between values and for sets and map diffs: `1 == 1.0`;
/// - `strict`, for elements of lists and maps (`[1] != [1.0]`), `in` on a list, and the
///   list methods (`hasAll`, `removeAll`...): the types must match.
/// Both compare doubles with IEEE equality (`NaN != NaN`, `-0.0 == 0.0`).
enum EqualityMode: Sendable {
    case numeric, strict
}

extension RValue {
    /// `a == b` between two values (not constraints or errors, which the caller handles).
    static func equal(_ lhs: RValue, _ rhs: RValue) -> Bool {
        equal(lhs, rhs, mode: .numeric)
    }

    /// Equality of list elements and map values.
    static func strictEqual(_ lhs: RValue, _ rhs: RValue) -> Bool {
        equal(lhs, rhs, mode: .strict)
    }

    /// Equality of set elements.
    static func setEqual(_ lhs: RValue, _ rhs: RValue) -> Bool {
        equal(lhs, rhs, mode: .numeric)
    }

    static func equal(_ lhs: RValue, _ rhs: RValue, mode: EqualityMode) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.float(let a), .float(let b)): return a == b
        case (.int(let a), .float(let b)): return mode == .numeric && Double(a) == b
        case (.float(let a), .int(let b)): return mode == .numeric && a == Double(b)
        case (.string(let a), .string(let b)): return rulesStringEqual(a, b)
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.timestamp(let a), .timestamp(let b)): return a == b
        case (.duration(let a), .duration(let b)): return a == b
        case (.latlng(let a), .latlng(let b)): return a.latitude == b.latitude && a.longitude == b.longitude
        case (.path(let a), .path(let b)):
            return a == b && !a.segments.contains { Library.templateVariable($0) != nil }
        case (.list(let a), .list(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { strictEqual($0, $1) }
        case (.vector(let a), .vector(let b)): return a == b
        case (.map(let a), .map(let b)):
            if a === b { return true }
            guard a.count == b.count else { return false }
            return zip(a.entries, b.entries).allSatisfy { left, right in
                utf8Equal(left.key, right.key) && strictEqual(left.value, right.value)
            }
        case (.set(let a), .set(let b)):
            guard a.count == b.count else { return false }
            let index = b.makeIndex()
            return a.elements.allSatisfy { index.contains($0) }
        case (.mapDiff(let a), .mapDiff(let b)):
            return Set(a.added) == Set(b.added) && Set(a.removed) == Set(b.removed)
                && Set(a.changed) == Set(b.changed) && Set(a.unchanged) == Set(b.unchanged)
        default:
            return false
        }
    }

    /// A hash consistent with `equal(_:_:mode:)`.
    func hash(into hasher: inout Hasher, mode: EqualityMode) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value):
            hasher.combine(mode == .numeric ? 2 : 3)
            hasher.combine(value)
        case .float(let value):
            if mode == .numeric, value == value.rounded(.towardZero), abs(value) < 0x1p63 {
                hasher.combine(2)
                hasher.combine(Int64(value))
            } else {
                hasher.combine(4)
                hasher.combine(value == 0 ? 0 : value)
            }
        case .string(let value): hasher.combineUTF8(value)
        case .bytes(let value): hasher.combine(value)
        case .timestamp(let value): hasher.combine(value)
        case .duration(let value): hasher.combine(value)
        case .latlng(let value):
            hasher.combine(value.latitude == 0 ? 0 : value.latitude)
            hasher.combine(value.longitude == 0 ? 0 : value.longitude)
        case .path(let value): hasher.combine(value)
        case .list(let values):
            hasher.combine(values.count)
            for value in values { value.hash(into: &hasher, mode: .strict) }
        case .map(let map):
            hasher.combine(map.count)
            for key in map.keys { hasher.combineUTF8(key) }
        case .set(let set): hasher.combine(set.count)
        case .mapDiff, .constraint, .error: hasher.combine(99)
        case .vector(let values): hasher.combine(values)
        }
    }
}

/// A value wrapped for hashing under an equality mode.
struct HashedValue: Hashable {
    let value: RValue
    let mode: EqualityMode

    static func == (lhs: HashedValue, rhs: HashedValue) -> Bool {
        RValue.equal(lhs.value, rhs.value, mode: lhs.mode)
    }

    func hash(into hasher: inout Hasher) {
        value.hash(into: &hasher, mode: mode)
    }
}

/// Membership tests in linear time for small collections and hashed for large ones, so that
/// `hasAll` on two long lists stays fast.
struct ValueIndex {
    let equality: EqualityMode
    private var small: [RValue] = []
    private var hashed: Set<HashedValue>?

    init(equality: EqualityMode) {
        self.equality = equality
    }

    init<S: Sequence>(_ values: S, equality: EqualityMode) where S.Element == RValue {
        self.equality = equality
        for value in values { _ = insert(value) }
    }

    /// Inserts a value; returns whether it was new.
    mutating func insert(_ value: RValue) -> Bool {
        if hashed == nil && small.count < 16 {
            if small.contains(where: { RValue.equal($0, value, mode: equality) }) { return false }
            small.append(value)
            return true
        }
        if hashed == nil {
            hashed = Set(small.map { HashedValue(value: $0, mode: equality) })
            small = []
        }
        return hashed!.insert(HashedValue(value: value, mode: equality)).inserted
    }

    func contains(_ value: RValue) -> Bool {
        if let hashed { return hashed.contains(HashedValue(value: value, mode: equality)) }
        return small.contains { RValue.equal($0, value, mode: equality) }
    }
}
