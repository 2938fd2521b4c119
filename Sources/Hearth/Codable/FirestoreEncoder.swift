import DocumentModel
import Foundation

extension Firestore {
    /// Encodes `Encodable` values into document data, as the Firebase SDK's `Firestore.Encoder`:
    /// `Timestamp`, `Date` (as a timestamp), `GeoPoint`, `DocumentReference`, `Data` and
    /// `FieldValue` pass through; `@DocumentID` properties are left out; a nil
    /// `@ServerTimestamp` becomes `FieldValue.serverTimestamp()`; a nil `@ExplicitNull`
    /// becomes null (other nil optionals are left out).
    ///
    /// ```swift
    /// let data = try Firestore.Encoder().encode(user)   // [String: Any]
    /// ```
    public struct Encoder: Sendable {
        public init() {}

        /// The document data of `value`, which must encode as a keyed container (a struct or class).
        ///
        /// - Throws: `EncodingError.invalidValue` for a value that is not a map at the top level.
        public func encode<T: Encodable>(_ value: T) throws -> [String: Any] {
            try encodeFields(value).mapValues(\.resolved)
        }

        /// The fields of `value` as encoded nodes, which the write parser reads directly.
        func encodeFields<T: Encodable>(_ value: T) throws -> [String: EncodedNode] {
            switch try ValueEncoder(codingPath: []).box(value).content {
            case .map(let entries): return entries
            case .empty: return [:]
            default:
                throw EncodingError.invalidValue(
                    value, EncodingError.Context(
                        codingPath: [], debugDescription: "Top-level \(T.self) is not encoded as a map of fields."))
            }
        }
    }
}

/// The `Swift.Encoder` behind `Firestore.Encoder`.
final class ValueEncoder: Swift.Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    let node = EncodedNode(.empty)

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    /// Encodes `value`: the pass-through types as themselves, others through their
    /// `encode(to:)` into this encoder's node (a fresh encoder for the value's coding path).
    func box<T: Encodable>(_ value: T) throws -> EncodedNode {
        if let leaf = EncodedNode.leaf(value) { return leaf }
        try value.encode(to: self)
        return node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .map = node.content {} else {
            var entries: [String: EncodedNode] = [:]
            entries.reserveCapacity(8)  // most structs' fields fit without growing
            node.content = .map(entries)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(encoder: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self, codingPath: codingPath)
    }

    /// An encoder for a nested value at `key`.
    func nested(_ key: any CodingKey) -> ValueEncoder {
        ValueEncoder(codingPath: codingPath + [key])
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ValueEncoder
        let node: EncodedNode
        let codingPath: [any CodingKey]

        private func set(_ child: EncodedNode, for key: Key) {
            guard case .map(var entries) = node.content else { return }
            node.content = .empty  // so that `entries` is the only reference and grows in place
            entries[key.stringValue] = child
            node.content = .map(entries)
        }

        mutating func encodeNil(forKey key: Key) throws { set(EncodedNode(.value(.null, NSNull())), for: key) }

        mutating func encode(_ value: String, forKey key: Key) throws {
            set(EncodedNode(.value(.string(value), value)), for: key)
        }

        mutating func encode(_ value: Bool, forKey key: Key) throws {
            set(EncodedNode(.value(.boolean(value), value)), for: key)
        }

        mutating func encode(_ value: Int, forKey key: Key) throws {
            set(EncodedNode(.value(.integer(Int64(value)), value)), for: key)
        }

        mutating func encode(_ value: Double, forKey key: Key) throws {
            set(EncodedNode(.value(.double(value), value)), for: key)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            set(try EncodedNode.leaf(value) ?? encoder.nested(key).box(value), for: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = EncodedNode(.map([:]))
            set(child, for: key)
            return KeyedEncodingContainer(
                KeyedContainer<NestedKey>(encoder: encoder.nested(key), node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = EncodedNode(.array([]))
            set(child, for: key)
            return UnkeyedContainer(encoder: encoder.nested(key), node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Swift.Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

        mutating func superEncoder(forKey key: Key) -> any Swift.Encoder {
            let child = encoder.nested(key)
            set(child.node, for: key)
            return child
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: ValueEncoder
        let node: EncodedNode
        let codingPath: [any CodingKey]

        var count: Int {
            if case .array(let elements) = node.content { return elements.count }
            return 0
        }

        private func append(_ child: EncodedNode) {
            guard case .array(var elements) = node.content else { return }
            node.content = .empty  // so that `elements` is the only reference and grows in place
            elements.append(child)
            node.content = .array(elements)
        }

        private var nextKey: IndexKey { IndexKey(intValue: count) }

        mutating func encodeNil() throws { append(EncodedNode(.value(.null, NSNull()))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            append(try EncodedNode.leaf(value) ?? encoder.nested(nextKey).box(value))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let key = nextKey
            let child = EncodedNode(.map([:]))
            append(child)
            return KeyedEncodingContainer(
                KeyedContainer<NestedKey>(encoder: encoder.nested(key), node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let key = nextKey
            let child = EncodedNode(.array([]))
            append(child)
            return UnkeyedContainer(encoder: encoder.nested(key), node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Swift.Encoder {
            let child = encoder.nested(nextKey)
            append(child.node)
            return child
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: ValueEncoder
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { encoder.node.content = .value(.null, NSNull()) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.node.content = try encoder.box(value).content
        }
    }
}

/// A coding key for an array index.
struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(intValue: Int) {
        self.intValue = intValue
        stringValue = "Index \(intValue)"
    }

    init?(stringValue: String) {
        return nil
    }
}
