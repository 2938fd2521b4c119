/// A Firestore value: one of the eleven types a document field can hold (and vectors, which are
/// maps of a particular shape: see `Value+Vector.swift`).
///
/// Values have Firestore's total order and equality (see `Value+Ordering.swift`): integers and
/// doubles compare numerically (`1 == 1.0`), NaN equals NaN and sorts before every other number,
/// strings compare by UTF-8 bytes. Use `isIdentical(to:)` where the type matters too.
///
/// ```swift
/// let user: Value = ["uid": "alice", "age": 30, "tags": ["a", "b"]]
/// ```
public enum Value: Sendable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case double(Double)
    case timestamp(Timestamp)
    case string(String)
    case bytes([UInt8])
    /// Boxed (`indirect`): a document name is far larger than the other payloads, and unboxed it
    /// makes every `Value` 40 bytes; boxed, a `Value` is 17 and a create costs about 3% fewer
    /// instructions (BENCHMARKS.md, "`Value.reference` `indirect`").
    indirect case reference(DocumentName)
    case geoPoint(GeoPoint)
    case array([Value])
    case map(MapValue)

    /// The type's position in Firestore's type order: null < boolean < number < timestamp <
    /// string < bytes < reference < geo point < array < vector < map. A vector is a map of a
    /// particular shape (see `Value+Vector.swift`).
    package var typeOrder: Int {
        switch self {
        case .null: 0
        case .boolean: 1
        case .integer, .double: 2
        case .timestamp: 3
        case .string: 4
        case .bytes: 5
        case .reference: 6
        case .geoPoint: 7
        case .array: 8
        case .map(let map): map.isVector ? 9 : 10
        }
    }

    /// The type's name as Firestore's API spells the field (`integerValue`, `mapValue`, ...).
    public var typeName: String {
        switch self {
        case .null: "nullValue"
        case .boolean: "booleanValue"
        case .integer: "integerValue"
        case .double: "doubleValue"
        case .timestamp: "timestampValue"
        case .string: "stringValue"
        case .bytes: "bytesValue"
        case .reference: "referenceValue"
        case .geoPoint: "geoPointValue"
        case .array: "arrayValue"
        case .map: "mapValue"
        }
    }

    /// Whether the value is an integer or a double.
    public var isNumber: Bool { typeOrder == 2 }

    /// Whether the value is the double NaN.
    public var isNaN: Bool {
        if case .double(let value) = self { return value.isNaN }
        return false
    }

    /// The map's fields, if this is a map.
    public var mapValue: MapValue? {
        if case .map(let map) = self { return map }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [Value]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Equality that also requires the same type and representation: `1` is not identical to
    /// `1.0`, NaN is identical to NaN, `0.0` is not identical to `-0.0`.
    package func isIdentical(to other: Value) -> Bool {
        switch (self, other) {
        case (.integer(let left), .integer(let right)): return left == right
        case (.double(let left), .double(let right)):
            return left.bitPattern == right.bitPattern || (left.isNaN && right.isNaN)
        case (.integer, .double), (.double, .integer): return false
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isIdentical(to: $1) }
        case (.map(let left), .map(let right)):
            return left.count == right.count
                && zip(left.entries, right.entries).allSatisfy {
                    utf8Equal($0.key, $1.key) && $0.value.isIdentical(to: $1.value)
                }
        default: return self == other
        }
    }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .map(MapValue(uniqueKeysWithValues: elements))
    }
}
