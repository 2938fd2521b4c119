import DocumentModel
import Foundation

/// A node of the tree `Firestore.Encoder` builds; containers are references so nested
/// containers can fill them after they are handed out.
///
/// Common leaves are converted to Firestore values as they are encoded, so a write made from an
/// `Encodable` (`setData(from:)`) needs no `[String: Any]` step and no dynamic casts to parse.
final class EncodedNode {
    enum Content {
        /// A leaf already converted, and the Swift value `Firestore.Encoder.encode` returns for it.
        case value(Value, Any)
        /// A `FieldValue` sentinel (a transform or a deletion).
        case sentinel(FieldValue)
        /// A leaf converted when written: its conversion can fail with the field's name (a
        /// `DocumentReference` of another database, a `UInt64` too large) or needs the database.
        case leaf(Any)
        case map([String: EncodedNode])
        case array([EncodedNode])
        case empty
    }

    var content: Content

    init(_ content: Content) {
        self.content = content
    }

    /// The node as `[String: Any]`, `[Any]` or a leaf value, as `Firestore.Encoder.encode` returns it.
    var resolved: Any {
        switch content {
        case .value(_, let swiftValue): swiftValue
        case .sentinel(let sentinel): sentinel
        case .leaf(let value): value
        case .map(let entries): entries.mapValues(\.resolved)
        case .array(let elements): elements.map(\.resolved)
        case .empty: [String: Any]()
        }
    }

    /// The node of a value encoded as itself, or `nil` for one encoded through `encode(to:)`.
    /// Types are recognised by their metatype: no dynamic cast, which costs far more.
    static func leaf<T: Encodable>(_ value: T) -> EncodedNode? {
        /// `value` as `U`, which `T` is.
        func cast<U>(_ type: U.Type) -> U { unsafeBitCast(value, to: type) }
        switch ObjectIdentifier(T.self) {
        case ObjectIdentifier(String.self):
            let string = cast(String.self)
            return EncodedNode(.value(.string(string), string))
        case ObjectIdentifier(FieldValue.self):
            return EncodedNode(.sentinel(cast(FieldValue.self)))
        case ObjectIdentifier(Int.self):
            let int = cast(Int.self)
            return EncodedNode(.value(.integer(Int64(int)), int))
        case ObjectIdentifier(Double.self):
            let double = cast(Double.self)
            return EncodedNode(.value(.double(double), double))
        case ObjectIdentifier(Bool.self):
            let bool = cast(Bool.self)
            return EncodedNode(.value(.boolean(bool), bool))
        case ObjectIdentifier(Timestamp.self):
            let timestamp = cast(Timestamp.self)
            return EncodedNode(.value(.timestamp(timestamp), timestamp))
        case ObjectIdentifier(Date.self):
            let timestamp = Timestamp(date: cast(Date.self))
            return EncodedNode(.value(.timestamp(timestamp), timestamp))
        case ObjectIdentifier(URL.self):
            let string = cast(URL.self).absoluteString
            return EncodedNode(.value(.string(string), string))
        case ObjectIdentifier(Decimal.self):
            let double = NSDecimalNumber(decimal: cast(Decimal.self)).doubleValue
            return EncodedNode(.value(.double(double), double))
        case ObjectIdentifier(GeoPoint.self):
            let point = cast(GeoPoint.self)
            return EncodedNode(.value(.geoPoint(point), point))
        case ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self),
            ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self), ObjectIdentifier(UInt8.self),
            ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt64.self),
            ObjectIdentifier(Float.self), ObjectIdentifier(DocumentReference.self), ObjectIdentifier(Data.self):
            return EncodedNode(.leaf(value))
        default:
            return nil
        }
    }
}
