import DocumentModel

/// A map object the evaluator synthesizes on demand (`request`, `resource`, `request.auth`):
/// its fields are computed when read, so a request does not build maps it never reads.
protocol RObject: AnyObject, Sendable {
    /// The field names, sorted by their UTF-8 bytes.
    var keys: [String] { get }
    func value(for key: String) -> RValue?
}

/// A map value. Maps are immutable in the rules language, so a class shares them cheaply.
///
/// Document data stays a `MapValue` and converts field by field as it is read.
final class RMap: Sendable {
    struct Entry: Sendable {
        let key: String
        let value: RValue
    }

    enum Storage: Sendable {
        case fields(MapValue)
        /// Sorted by key bytes, keys unique.
        case entries([Entry])
        case object(any RObject)
    }

    let storage: Storage
    /// The fields of a document-backed map, kept outside `storage` for the lookup fast path.
    private let fieldEntries: [MapValue.Entry]

    init(fields: MapValue) {
        storage = .fields(fields)
        fieldEntries = fields.entries
    }

    init(object: any RObject) {
        storage = .object(object)
        fieldEntries = []
    }

    /// A map of sorted, unique entries.
    init(sortedEntries: [Entry]) {
        storage = .entries(sortedEntries)
        fieldEntries = []
    }

    /// Calls `body` with the entries of a document-backed map, without building values; `nil`
    /// for other maps.
    @inline(__always)
    func withDocumentEntries<Result>(_ body: ([MapValue.Entry]) -> Result) -> Result? {
        guard case .fields = storage else { return nil }
        return body(fieldEntries)
    }

    /// The value of a key of a small document-backed map, found by a scan; `.none` when the
    /// map is not one (`.some(nil)` when the key is absent).
    /// (With `convert` false, a found key gives `.null`.)
    @inline(__always)
    private func scanFields(_ key: String, convert: Bool = true) -> RValue?? {
        let count = fieldEntries.count
        guard count > 0, count <= 12 else { return .none }
        let entries = fieldEntries
        for index in 0..<count where identicalRepresentation(entries[index].key, key) {
            return .some(convert ? RValue(entries[index].value) : .null)
        }
        let length = key.utf8.count
        for index in 0..<count where entries[index].key.utf8.count == length && rulesStringEqual(entries[index].key, key) {
            return .some(convert ? RValue(entries[index].value) : .null)
        }
        return .some(nil)
    }

    /// A map of entries in any order; a later duplicate key replaces an earlier one.
    convenience init(entries: [Entry]) {
        var sorted = entries.enumerated().sorted { left, right in
            let order = compareUTF8(left.element.key, right.element.key)
            return order != 0 ? order < 0 : left.offset < right.offset
        }.map(\.element)
        var index = 1
        while index < sorted.count {
            if utf8Equal(sorted[index - 1].key, sorted[index].key) {
                sorted.remove(at: index - 1)
            } else {
                index += 1
            }
        }
        self.init(sortedEntries: sorted)
    }

    static let empty = RMap(sortedEntries: [])

    var count: Int {
        switch storage {
        case .fields(let fields): fields.count
        case .entries(let entries): entries.count
        case .object(let object): object.keys.count
        }
    }

    /// The keys in order.
    var keys: [String] {
        switch storage {
        case .fields(let fields): fields.keys
        case .entries(let entries): entries.map(\.key)
        case .object(let object): object.keys
        }
    }

    subscript(key: String) -> RValue? {
        if let found = scanFields(key) { return found }
        switch storage {
        case .fields(let fields):
            // Small maps (most documents) are scanned: comparing lengths first is cheaper than
            // ordering strings.
            return fields[key].map(RValue.init)
        case .entries(let entries):
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                let order = compareUTF8(entries[middle].key, key)
                if order == 0 { return entries[middle].value }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        case .object(let object):
            return object.value(for: key)
        }
    }

    /// Whether the map has `key` (`key in map`): `self[key] != nil`, without converting the value.
    func contains(key: String) -> Bool {
        if case .some(let found) = scanFields(key, convert: false) { return found != nil }
        return self[key] != nil
    }

    /// All entries, in key order.
    var entries: [Entry] {
        switch storage {
        case .fields(let fields): fields.entries.map { Entry(key: $0.key, value: RValue($0.value)) }
        case .entries(let entries): entries
        case .object(let object): object.keys.compactMap { key in object.value(for: key).map { Entry(key: key, value: $0) } }
        }
    }

    /// The values in key order.
    var values: [RValue] { entries.map(\.value) }
}

/// A set value: unique elements under the rules language's set equality (where `1` equals
/// `1.0`), in insertion order.
struct RSet: Sendable {
    private(set) var elements: [RValue]

    init() { elements = [] }

    init<S: Sequence>(_ values: S) where S.Element == RValue {
        elements = []
        var index = ValueIndex(equality: .numeric)
        for value in values where index.insert(value) {
            elements.append(value)
        }
    }

    var count: Int { elements.count }

    func contains(_ value: RValue) -> Bool {
        elements.contains { RValue.setEqual($0, value) }
    }

    /// A lookup structure for repeated membership tests.
    func makeIndex() -> ValueIndex {
        var index = ValueIndex(equality: .numeric)
        for element in elements { _ = index.insert(element) }
        return index
    }
}

/// The result of `map.diff(other)`: for each key of either map, whether it was added, removed,
/// changed or unchanged going from `other` to `map`.
struct RMapDiff: Sendable {
    var added: [String]
    var removed: [String]
    var changed: [String]
    var unchanged: [String]
}
