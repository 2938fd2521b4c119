/// The fields of a map value or a document: names mapped to values, kept sorted by the names'
/// UTF-8 bytes (Firestore's key order), so iteration, comparison and encoding need no sorting.
///
/// Names are compared by bytes, never by Unicode canonical equivalence: `"é"` written as one
/// code point and as `e` plus a combining accent are two different fields, as in Firestore.
///
/// ```swift
/// var fields: MapValue = ["name": "Alice"]
/// fields["age"] = 30
/// try fields.setValue("Paris", at: FieldPath("address.city"))
/// ```
public struct MapValue: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field.
    public struct Entry: Sendable {
        public let key: String
        public var value: Value
    }

    /// The fields in key order.
    public private(set) var entries: [Entry]

    /// An empty map.
    public init() { entries = [] }

    /// A map of `pairs`; a later duplicate key replaces an earlier one.
    public init<S: Sequence>(uniqueKeysWithValues pairs: S) where S.Element == (String, Value) {
        entries = []
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(uniqueKeysWithValues: elements)
    }

    /// The number of fields.
    public var count: Int { entries.count }

    /// Whether the map has no fields.
    public var isEmpty: Bool { entries.isEmpty }

    /// The field names in order.
    public var keys: [String] { entries.map(\.key) }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// The value of a top-level field; assigning `nil` removes it.
    public subscript(key: String) -> Value? {
        get {
            let (index, found) = position(of: key)
            // Not `found ? value : nil`: `Value` is expressible by `nil`, so that ternary would
            // type as `Value` and give `.null` for a missing field.
            guard found else { return .none }
            return entries[index].value
        }
        set {
            let (index, found) = position(of: key)
            switch (found, newValue) {
            case (true, let value?): entries[index].value = value
            case (true, nil): entries.remove(at: index)
            case (false, let value?): entries.insert(Entry(key: key, value: value), at: index)
            case (false, nil): break
            }
        }
    }

    /// Sets a top-level field like the subscript, but appends without searching when `key`
    /// sorts after every name present, as names do when decoding the sorted stored encoding.
    mutating func appendOrSet(_ key: String, _ value: Value) {
        if let last = entries.last, compareUTF8(last.key, key) >= 0 {
            self[key] = value
            return
        }
        entries.append(Entry(key: key, value: value))
    }

    /// Reserves room for `count` fields.
    mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

    /// The value at a nested path, or `nil` if some name on the way is missing or not a map (a
    /// vector is not a map here: its fields are not addressable).
    public func value(at path: FieldPath) -> Value? {
        var current = self
        for (offset, name) in path.segments.enumerated() {
            guard let value = current[name] else { return nil }
            if offset == path.segments.count - 1 { return value }
            guard case .map(let inner) = value, inner.isNestable else { return nil }
            current = inner
        }
        return nil
    }

    /// Sets the value at a nested path, creating maps on the way and replacing any non-map
    /// value (or vector) that stands where a map is needed.
    public mutating func setValue(_ value: Value, at path: FieldPath) {
        setValue(value, at: path.segments[...])
    }

    private mutating func setValue(_ value: Value, at segments: ArraySlice<String>) {
        let name = segments.first!
        if segments.count == 1 {
            self[name] = value
            return
        }
        var inner = self[name]?.nestableMap ?? MapValue()
        inner.setValue(value, at: segments.dropFirst())
        self[name] = .map(inner)
    }

    /// Removes the value at a nested path; does nothing if it is not there. Maps on the way are
    /// kept, even when they become empty, as Firestore keeps them.
    public mutating func removeValue(at path: FieldPath) {
        removeValue(at: path.segments[...])
    }

    private mutating func removeValue(at segments: ArraySlice<String>) {
        let name = segments.first!
        if segments.count == 1 {
            self[name] = nil
            return
        }
        guard var inner = self[name]?.nestableMap else { return }
        inner.removeValue(at: segments.dropFirst())
        self[name] = .map(inner)
    }

    /// Binary search by UTF-8 bytes: the index of `key`, or where it would be inserted.
    private func position(of key: String) -> (index: Int, found: Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let order = compareUTF8(entries[middle].key, key)
            if order == 0 { return (middle, true) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    public static func == (lhs: MapValue, rhs: MapValue) -> Bool {
        lhs.count == rhs.count
            && zip(lhs.entries, rhs.entries).allSatisfy { utf8Equal($0.key, $1.key) && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combineUTF8(entry.key)
            hasher.combine(entry.value)
        }
    }
}
