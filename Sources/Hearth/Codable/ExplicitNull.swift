/// An optional property whose `nil` is written as an explicit null field (other `nil`
/// optionals are left out of the fields), as in the Firebase SDK.
///
/// ```swift
/// struct Profile: Codable {
///     @ExplicitNull var nickname: String?   // nil writes "nickname": null
/// }
/// ```
@propertyWrapper
public struct ExplicitNull<Value: Codable> {
    /// The value, or `nil` (written as null).
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension ExplicitNull: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension ExplicitNull: Sendable where Value: Sendable {}
extension ExplicitNull: Equatable where Value: Equatable {}
extension ExplicitNull: Hashable where Value: Hashable {}

extension KeyedDecodingContainer {
    /// Decodes an `@ExplicitNull` property, `nil` when the fields lack its key.
    public func decode<Value>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws -> ExplicitNull<Value> {
        try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
    }
}
