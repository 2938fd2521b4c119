/// Firestore's total order and equality of values.
///
/// - Types order null < boolean < number < timestamp < string < bytes < reference < geo point <
///   array < vector < map.
/// - Integers and doubles compare numerically and exactly (`2^53 + 1` is greater than the double
///   `2^53`); NaN equals NaN and sorts before every other number; `-0.0 == 0.0`.
/// - Strings and bytes compare bytewise (strings by UTF-8); references segment by segment, as
///   document names order (numeric ids `__id<int64>__` first, by value; see `ResourcePath`).
/// - Arrays compare element by element, a prefix first; maps compare entry by entry in key
///   order, each key before its value; vectors compare by length, then element by element
///   (see `Value+Vector.swift`).
extension Value: Comparable, Hashable {
    /// Compares two values in Firestore's order: negative, zero or positive.
    public static func compare(_ lhs: Value, _ rhs: Value) -> Int {
        let leftType = lhs.typeOrder
        let rightType = rhs.typeOrder
        if leftType != rightType { return leftType < rightType ? -1 : 1 }
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.boolean(let left), .boolean(let right)): return left == right ? 0 : (left ? 1 : -1)
        case (.integer(let left), .integer(let right)): return sign(left, right)
        case (.double(let left), .double(let right)): return compareDoubles(left, right)
        case (.integer(let left), .double(let right)): return compareIntegerToDouble(left, right)
        case (.double(let left), .integer(let right)): return -compareIntegerToDouble(right, left)
        case (.timestamp(let left), .timestamp(let right)): return left == right ? 0 : (left < right ? -1 : 1)
        case (.string(let left), .string(let right)): return compareUTF8(left, right)
        case (.bytes(let left), .bytes(let right)): return compareSequences(left, right) { sign($0, $1) }
        case (.reference(let left), .reference(let right)): return left == right ? 0 : (left < right ? -1 : 1)
        case (.geoPoint(let left), .geoPoint(let right)):
            let latitude = compareSignedZeros(left.latitude, right.latitude)
            return latitude != 0 ? latitude : compareSignedZeros(left.longitude, right.longitude)
        case (.array(let left), .array(let right)): return compareSequences(left, right, by: compare)
        case (.map(let left), .map(let right)):
            if leftType == 9 { return compareVectors(left, right) }
            return compareSequences(left.entries, right.entries) { leftEntry, rightEntry in
                let key = compareUTF8(leftEntry.key, rightEntry.key)
                return key != 0 ? key : compare(leftEntry.value, rightEntry.value)
            }
        default: return 0
        }
    }

    public static func < (lhs: Value, rhs: Value) -> Bool { compare(lhs, rhs) < 0 }

    public static func == (lhs: Value, rhs: Value) -> Bool { compare(lhs, rhs) == 0 }

    /// Hashes consistently with Firestore equality: `1` and `1.0` hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeOrder)
        switch self {
        case .null: break
        case .boolean(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(value)
        case .double(let value):
            if value.isNaN {
                hasher.combine(0x7FF8 as UInt16)
            } else if value == value.rounded(.towardZero), value >= -0x1p63, value < 0x1p63 {
                hasher.combine(Int64(value))
            } else {
                hasher.combine(value.bitPattern)
            }
        case .timestamp(let value): hasher.combine(value)
        case .string(let value):
            hasher.combineUTF8(value)
        case .bytes(let value): hasher.combine(value)
        case .reference(let value): hasher.combine(value)
        case .geoPoint(let value): hasher.combine(value)
        case .array(let elements):
            hasher.combine(elements.count)
            for element in elements { hasher.combine(element) }
        case .map(let map):
            if let elements = map.vectorElements {
                // Vector elements are equal only when identical (NaN aside): hash their bits.
                for element in elements { hasher.combine(element.isNaN ? Double.nan.bitPattern : element.bitPattern) }
            } else {
                hasher.combine(map)
            }
        }
    }

    private static func sign<T: Comparable>(_ lhs: T, _ rhs: T) -> Int {
        lhs < rhs ? -1 : (lhs == rhs ? 0 : 1)
    }

    /// Doubles with NaN first and equal to itself, and `-0.0 == 0.0`.
    static func compareDoubles(_ lhs: Double, _ rhs: Double) -> Int {
        if lhs.isNaN { return rhs.isNaN ? 0 : -1 }
        if rhs.isNaN { return 1 }
        return sign(lhs, rhs)
    }

    /// Doubles with `-0.0` before `0.0`: how Google's emulator compares the coordinates of geo
    /// points (measured: ordering, `==`, `in` and cursors tell `GeoPoint(-0.0, 1)` from
    /// `GeoPoint(0.0, 1)`, unlike numbers). Coordinates are never NaN.
    static func compareSignedZeros(_ lhs: Double, _ rhs: Double) -> Int {
        if lhs == 0, rhs == 0, lhs.sign != rhs.sign { return lhs.sign == .minus ? -1 : 1 }
        return compareDoubles(lhs, rhs)
    }

    /// An integer against a double, exactly.
    static func compareIntegerToDouble(_ integer: Int64, _ double: Double) -> Int {
        if double.isNaN { return 1 }
        if double >= 0x1p63 { return -1 }
        if double < -0x1p63 { return 1 }
        let floor = double.rounded(.down)
        let whole = Int64(floor)
        if integer != whole { return integer < whole ? -1 : 1 }
        return double > floor ? -1 : 0
    }

    private static func compareSequences<C: Collection>(
        _ lhs: C, _ rhs: C, by compareElements: (C.Element, C.Element) -> Int
    ) -> Int {
        for (left, right) in zip(lhs, rhs) {
            let order = compareElements(left, right)
            if order != 0 { return order }
        }
        return sign(lhs.count, rhs.count)
    }
}
