public import DocumentModel
public import Foundation

/// A type a `@ServerTimestamp` property can hold: `Timestamp` or `Date`.
public protocol ServerTimestampWrappable: Sendable {
    /// The value of a stored timestamp.
    static func wrap(_ timestamp: Timestamp) throws -> Self
    /// The timestamp to store for a value.
    static func unwrap(_ value: Self) throws -> Timestamp
}

extension Timestamp: ServerTimestampWrappable {
    public static func wrap(_ timestamp: Timestamp) throws -> Timestamp { timestamp }
    public static func unwrap(_ value: Timestamp) throws -> Timestamp { value }
}

extension Date: ServerTimestampWrappable {
    public static func wrap(_ timestamp: Timestamp) throws -> Date { timestamp.dateValue }
    public static func unwrap(_ value: Date) throws -> Timestamp { Timestamp(date: value) }
}

/// A timestamp the server fills in: encoding a `nil` writes `FieldValue.serverTimestamp()`;
/// a set value is written as it is.
///
/// ```swift
/// struct Post: Codable {
///     var text: String
///     @ServerTimestamp var createdAt: Timestamp?
/// }
/// try ref.setData(from: Post(text: "hi"))   // createdAt becomes the commit time
/// ```
@propertyWrapper
public struct ServerTimestamp<Value: ServerTimestampWrappable & Codable>: Codable, Sendable {
    /// The timestamp, or `nil` until the server has set it.
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try Value.wrap(container.decode(Timestamp.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(Value.unwrap(wrappedValue))
        } else {
            try container.encode(FieldValue.serverTimestamp())
        }
    }
}

extension ServerTimestamp: Equatable where Value: Equatable {}
extension ServerTimestamp: Hashable where Value: Hashable {}

extension KeyedDecodingContainer {
    /// Decodes a `@ServerTimestamp` property, `nil` when the fields lack its key.
    public func decode<Value>(_ type: ServerTimestamp<Value>.Type, forKey key: Key) throws -> ServerTimestamp<Value> {
        try decodeIfPresent(type, forKey: key) ?? ServerTimestamp(wrappedValue: nil)
    }
}
