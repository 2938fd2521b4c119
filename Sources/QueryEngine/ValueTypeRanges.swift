package import DocumentModel

/// The encoded-value intervals of Firestore's types, from the type tags of `OrderedKey`.
package enum ValueTypeRanges {
    /// Per type, in type order (null ... array, vector, map): the first byte of the encodings a range filter
    /// can match (numbers start at `10`, after NaN's `0F`, which range filters never match), and
    /// the first byte after the type (booleans end where NaN starts).
    private static let typeBounds: [(lower: UInt8, upper: UInt8)] = [
        (0x05, 0x0A), (0x0A, 0x0F), (0x10, 0x14), (0x14, 0x19), (0x19, 0x1E), (0x1E, 0x23), (0x23, 0x28),
        (0x28, 0x2D), (0x2D, 0x30), (0x30, 0x32), (0x32, 0x33),
    ]

    /// The values of the same type as `value` that a range filter can match: numbers without
    /// NaN, which Firestore's range filters never return.
    package static func sameType(as value: Value) -> ValueRanges {
        let bounds = typeBounds[value.typeOrder]
        return .between([bounds.lower], [bounds.upper])
    }

    /// Every value but null.
    package static let nonNull = ValueRanges.between([typeBounds[1].lower], nil)
    /// The null value.
    package static let null = ValueRanges.points([.null])
    /// NaN.
    package static let nan = ValueRanges.points([.double(.nan)])
}
