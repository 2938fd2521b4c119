import DocumentModel
import Foundation

/// Converts between Swift values as the Firebase SDK accepts and returns them (`[String: Any]`
/// holding `String`, `Int`, `Double`, `Bool`, `Timestamp`, `Date`, `GeoPoint`, `Data`,
/// `DocumentReference`, `VectorValue`, `NSNull`, arrays and dictionaries) and Firestore values.
enum ValueConverter {
    /// The Firestore value of a Swift value; `FieldValue`s are refused here (the write parser
    /// handles them where they are allowed).
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the field and the unsupported type.
    static func value(from input: Any?, at field: String, in database: DatabaseID?) throws -> Value {
        guard let input else { return .null }
        if let optional = input as? any OptionalProtocol { return try value(from: optional.wrapped, at: field, in: database) }
        switch input {
        case let value as Value: return value
        case is NSNull: return .null
        case let bool as Bool: return .boolean(bool)
        case let int as Int: return .integer(Int64(int))
        case let int as Int64: return .integer(int)
        case let int as Int32: return .integer(Int64(int))
        case let int as Int16: return .integer(Int64(int))
        case let int as Int8: return .integer(Int64(int))
        case let int as UInt32: return .integer(Int64(int))
        case let int as UInt16: return .integer(Int64(int))
        case let int as UInt8: return .integer(Int64(int))
        case let int as UInt:
            guard let exact = Int64(exactly: int) else { throw tooLarge(field) }
            return .integer(exact)
        case let int as UInt64:
            guard let exact = Int64(exactly: int) else { throw tooLarge(field) }
            return .integer(exact)
        case let double as Double: return .double(double)
        case let float as Float: return .double(Double(float))
        case let string as String: return .string(string)
        case let substring as Substring: return .string(String(substring))
        case let timestamp as Timestamp: return .timestamp(timestamp)
        case let date as Date: return .timestamp(Timestamp(date: date))
        case let point as GeoPoint: return .geoPoint(point)
        case let vector as VectorValue: return .vector(vector.array)
        case let data as Data: return .bytes([UInt8](data))
        case let reference as DocumentReference:
            let name = try reference.resolvedName()
            if let database, name.databaseID != database {
                throw FirestoreError.invalidArgument(
                    "Document reference for field '\(field)' is for database \(name.databaseID.resourceName) "
                        + "but should be for database \(database.resourceName)")
            }
            return .reference(name)
        case is FieldValue:
            throw FirestoreError.invalidArgument(
                "\(input) can only be used with setData() and updateData(), at the top level or in nested "
                    + "maps, never inside arrays or queries (found in field '\(field)')")
        case let array as [Any]:
            return .array(try array.enumerated().map { index, element in
                if element is [Any] {
                    throw FirestoreError.invalidArgument("Nested arrays are not supported (found in field '\(field)')")
                }
                return try value(from: element, at: field, in: database)
            })
        case let dictionary as [String: Any]:
            var map = MapValue()
            for (key, element) in dictionary {
                map[key] = try value(from: element, at: field.isEmpty ? key : "\(field).\(key)", in: database)
            }
            return .map(map)
        default:
            throw FirestoreError.invalidArgument(
                "Unsupported type \(type(of: input)) in field '\(field)': use String, numbers, Bool, Timestamp, "
                    + "Date, GeoPoint, Data, DocumentReference, VectorValue, NSNull, arrays or dictionaries")
        }
    }

    /// A custom claim of a user identity.
    static func value(fromClaim input: Any, key: String) throws -> Value {
        try value(from: input, at: key, in: nil)
    }

    /// The Swift value of a Firestore value, as `DocumentSnapshot.data()` returns it: `Int`,
    /// `Double`, `String`, `Bool`, `Timestamp`, `GeoPoint`, `Data`, `DocumentReference`,
    /// `VectorValue`, `NSNull`, `[Any]` and `[String: Any]`.
    static func swiftValue(_ value: Value, firestore: Firestore) -> Any {
        switch value {
        case .null: NSNull()
        case .boolean(let bool): bool
        case .integer(let int): Int(int)
        case .double(let double): double
        case .timestamp(let timestamp): timestamp
        case .string(let string): string
        case .bytes(let bytes): Data(bytes)
        case .reference(let name): DocumentReference(name: name, firestore: firestore)
        case .geoPoint(let point): point
        case .array(let elements): elements.map { swiftValue($0, firestore: firestore) }
        case .map(let map):
            if let elements = map.vectorElements {
                VectorValue(elements) as Any
            } else {
                dictionary(map, firestore: firestore) as Any
            }
        }
    }

    /// A map's fields as a dictionary (see `swiftValue`).
    static func dictionary(_ map: MapValue, firestore: Firestore) -> [String: Any] {
        var result: [String: Any] = [:]
        result.reserveCapacity(map.count)
        for entry in map { result[entry.key] = swiftValue(entry.value, firestore: firestore) }
        return result
    }

    private static func tooLarge(_ field: String) -> FirestoreError {
        FirestoreError.invalidArgument("Integer in field '\(field)' is too large for a 64-bit signed integer")
    }
}

/// Lets the converter look through `Optional`s stored in `Any`.
protocol OptionalProtocol {
    var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrapped: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}
