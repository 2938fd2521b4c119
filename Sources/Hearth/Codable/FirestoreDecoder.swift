import DocumentModel
import Foundation

extension Firestore {
    /// Decodes document data into `Decodable` values, as the Firebase SDK's `Firestore.Decoder`:
    /// `Timestamp`, `Date`, `GeoPoint`, `DocumentReference` and `Data` are read from the
    /// matching Firestore types, integers from integers (or doubles with an integral value),
    /// and `@DocumentID` properties from the document's reference.
    ///
    /// ```swift
    /// let user = try Firestore.Decoder().decode(User.self, from: snapshot.data() ?? [:], in: snapshot.reference)
    /// ```
    public struct Decoder: Sendable {
        public init() {}

        /// Decodes `data`; `reference` fills `@DocumentID` properties.
        ///
        /// - Throws: `DecodingError` naming the coding path of a missing or mistyped value.
        public func decode<T: Decodable>(_ type: T.Type, from data: [String: Any], in reference: DocumentReference? = nil)
            throws -> T
        {
            let database = reference?.firestore.database
            let value = try ValueConverter.value(from: data, at: "", in: database)
            return try decode(type, from: value, reference: reference)
        }

        func decode<T: Decodable>(_ type: T.Type, from value: Value, reference: DocumentReference?) throws -> T {
            guard let firestore = reference?.firestore else {
                return try ValueDecoder(value: value, codingPath: [], context: nil).unbox(type)
            }
            let context = ValueDecoder.Context(firestore: firestore, reference: reference)
            return try ValueDecoder(value: value, codingPath: [], context: context).unbox(type)
        }
    }
}

/// The key under which a decoder's `userInfo` holds the `DocumentReference` of the document
/// decoded, for `@DocumentID`.
extension CodingUserInfoKey {
    /// The `DocumentReference` of the document being decoded.
    public static let documentReference = CodingUserInfoKey(rawValue: "HearthDocumentReference")!
}

/// The `Swift.Decoder` behind `Firestore.Decoder`: reads a `Value` tree.
struct ValueDecoder: Swift.Decoder {
    /// What references and `@DocumentID` need.
    struct Context {
        let firestore: Firestore
        let reference: DocumentReference?
    }

    let value: Value
    let codingPath: [any CodingKey]
    let context: Context?

    var userInfo: [CodingUserInfoKey: Any] {
        guard let reference = context?.reference else { return [:] }
        return [.documentReference: reference]
    }

    func nested(_ value: Value, _ key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key], context: context)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "Expected \(type) but found \(value.typeName)."))
    }

    /// Decodes `type`: the special types from their Firestore values, others through `init(from:)`.
    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if let leaf = try leafValue(type) as? T { return leaf }
        return try T(from: self)
    }

    /// The value for a type read directly, or `nil` for types decoded through `init(from:)`.
    private func leafValue(_ type: Any.Type) throws -> Any? {
        switch type {
        case is Timestamp.Type:
            guard case .timestamp(let timestamp) = value else { throw mismatch(type) }
            return timestamp
        case is Date.Type:
            guard case .timestamp(let timestamp) = value else { throw mismatch(type) }
            return timestamp.dateValue
        case is GeoPoint.Type:
            guard case .geoPoint(let point) = value else { throw mismatch(type) }
            return point
        case is Data.Type:
            guard case .bytes(let bytes) = value else { throw mismatch(type) }
            return Data(bytes)
        case is URL.Type:
            guard case .string(let text) = value, let url = URL(string: text) else { throw mismatch(type) }
            return url
        case is DocumentReference.Type:
            guard case .reference(let name) = value else { throw mismatch(type) }
            guard let firestore = context?.firestore else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "A DocumentReference can only be decoded with a reference to decode in."))
            }
            return DocumentReference(name: name, firestore: firestore)
        case is Bool.Type:
            guard case .boolean(let bool) = value else { throw mismatch(type) }
            return bool
        case is String.Type:
            guard case .string(let string) = value else { throw mismatch(type) }
            return string
        case is Double.Type: return try number(type)
        case is Float.Type: return Float(try number(type))
        case let integer as any FixedWidthInteger.Type: return try self.integer(integer)
        default: return nil
        }
    }

    private func number(_ type: Any.Type) throws -> Double {
        switch value {
        case .double(let double): return double
        case .integer(let integer): return Double(integer)
        default: throw mismatch(type)
        }
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let result: I?
        switch value {
        case .integer(let integer): result = I(exactly: integer)
        case .double(let double): result = I(exactly: double)
        default: throw mismatch(type)
        }
        guard let result else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: "Number \(value) does not fit in \(type)."))
        }
        return result
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let map) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, map: map))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return UnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: ValueDecoder
        let map: MapValue

        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { map.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { map[key.stringValue] != nil }

        private func child(_ key: Key) throws -> ValueDecoder {
            guard let value = map[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, DecodingError.Context(codingPath: codingPath, debugDescription: "No value for key '\(key.stringValue)'."))
            }
            return decoder.nested(value, key)
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let value = map[key.stringValue] else { return true }
            if case .null = value { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try child(key).unbox(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try child(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Swift.Decoder {
            decoder.nested(map["super"] ?? .null, IndexKey(intValue: 0))
        }

        /// A decoder for `key`'s value, reading null when the key is absent (for the property
        /// wrappers, which decide what absence means).
        func superDecoder(forKey key: Key) throws -> any Swift.Decoder {
            decoder.nested(map[key.stringValue] ?? .null, key)
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: ValueDecoder
        let elements: [Value]
        var currentIndex = 0

        init(decoder: ValueDecoder, elements: [Value]) {
            self.decoder = decoder
            self.elements = elements
        }

        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next() throws -> ValueDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "Unkeyed container is at end."))
            }
            defer { currentIndex += 1 }
            return decoder.nested(elements[currentIndex], IndexKey(intValue: currentIndex))
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, case .null = elements[currentIndex] else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next().unbox(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next().unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Swift.Decoder {
            try next()
        }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: ValueDecoder

        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool {
            if case .null = decoder.value { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try decoder.unbox(type)
        }
    }
}
