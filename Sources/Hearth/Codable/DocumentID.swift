import DocumentModel
/// A type a `@DocumentID` property can hold: `String` (the document's id) or `DocumentReference`.
public protocol DocumentIDWrappable: Sendable {
    /// The value for the document at `reference`.
    static func wrap(_ reference: DocumentReference) throws -> Self
}

extension String: DocumentIDWrappable {
    public static func wrap(_ reference: DocumentReference) throws -> String { reference.documentID }
}

extension DocumentReference: DocumentIDWrappable {
    public static func wrap(_ reference: DocumentReference) throws -> Self {
        guard let same = reference as? Self else { throw FirestoreError(.internal, "Unexpected reference type") }
        return same
    }
}

/// A property filled with the decoded document's id (or reference), and never written into the
/// document's fields, as in the Firebase SDK.
///
/// ```swift
/// struct User: Codable {
///     @DocumentID var id: String?
///     var name: String
/// }
/// let user = try await db.document("users/alice").getDocument(as: User.self)   // user.id == "alice"
/// ```
@propertyWrapper
public struct DocumentID<Value: DocumentIDWrappable & Codable>: Codable, Sendable {
    /// The id, or `nil` before the value is read from a document.
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Reads the reference of the document decoded (`userInfo[.documentReference]`); `nil`
    /// when the decoder decodes no document.
    public init(from decoder: any Decoder) throws {
        guard let reference = decoder.userInfo[.documentReference] as? DocumentReference else {
            wrappedValue = nil
            return
        }
        wrappedValue = try Value.wrap(reference)
    }

    /// Writes nothing: the id is the document's name, not a field.
    public func encode(to encoder: any Encoder) throws {}
}

extension DocumentID: Equatable where Value: Equatable {}
extension DocumentID: Hashable where Value: Hashable {}

extension KeyedEncodingContainer {
    /// Leaves `@DocumentID` properties out of the encoded fields.
    public mutating func encode<Value>(_ value: DocumentID<Value>, forKey key: Key) throws {}
}

extension KeyedDecodingContainer {
    /// Decodes a `@DocumentID` property from the document's reference, whether or not the
    /// fields hold its key.
    public func decode<Value>(_ type: DocumentID<Value>.Type, forKey key: Key) throws -> DocumentID<Value> {
        try DocumentID(from: superDecoder(forKey: key))
    }
}
