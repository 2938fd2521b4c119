package import DocumentModel

/// A set of values as sorted, disjoint, half-open intervals of their `OrderedKey` encodings.
///
/// Because encoded bytes compare like values, every filter of one field is such a set: an
/// equality is one point, `in` several, a range filter one interval within its type. The same
/// set answers both questions the engine asks: which index keys to read (the intervals, after
/// the field's key prefix) and whether a document's value passes (`contains`), so the index and
/// the evaluation of fetched documents cannot disagree.
package struct ValueRanges: Equatable, Sendable {
    /// `lower ..< upper` in encoded bytes; `upper == nil` has no end.
    package struct Interval: Equatable, Sendable {
        package var lower: [UInt8]
        package var upper: [UInt8]?
        /// Whether the interval holds exactly the one value whose encoding is `lower`.
        package var isPoint: Bool
    }

    /// The intervals, sorted and disjoint.
    package private(set) var intervals: [Interval]

    private init(_ intervals: [Interval]) { self.intervals = intervals }

    /// Every value.
    package static let all = ValueRanges([Interval(lower: [], upper: nil, isPoint: false)])
    /// No value.
    package static let empty = ValueRanges([])

    /// The values whose encodings lie in `lower ..< upper`.
    package static func between(_ lower: [UInt8], _ upper: [UInt8]?) -> ValueRanges {
        if let upper, !lower.lexicographicallyPrecedes(upper) { return .empty }
        return ValueRanges([Interval(lower: lower, upper: upper, isPoint: false)])
    }

    /// Exactly the given values (duplicates, such as `1` and `1.0`, collapse).
    package static func points(_ values: [Value]) -> ValueRanges {
        let encodings = values.map(OrderedKey.encoding(of:)).sorted { $0.lexicographicallyPrecedes($1) }
        var intervals: [Interval] = []
        for encoding in encodings where intervals.last?.lower != encoding {
            intervals.append(Interval(lower: encoding, upper: OrderedKey.successor(ofPrefix: encoding), isPoint: true))
        }
        return ValueRanges(intervals)
    }

    package var isEmpty: Bool { intervals.isEmpty }

    /// Whether every interval is a single value (an equality-like filter): within one value,
    /// index entries come in document-name order.
    package var isPoints: Bool { !intervals.isEmpty && intervals.allSatisfy(\.isPoint) }

    /// Whether the encoded value `encoding` is in the set.
    package func contains(_ encoding: [UInt8]) -> Bool {
        intervals.contains { interval in
            !encoding.lexicographicallyPrecedes(interval.lower)
                && (interval.upper.map { encoding.lexicographicallyPrecedes($0) } ?? true)
        }
    }

    /// The values in both sets.
    package func intersection(_ other: ValueRanges) -> ValueRanges {
        var result: [Interval] = []
        var left = 0
        var right = 0
        while left < intervals.count, right < other.intervals.count {
            let a = intervals[left]
            let b = other.intervals[right]
            let lower = a.lower.lexicographicallyPrecedes(b.lower) ? b.lower : a.lower
            let upper = ValueRanges.minimum(a.upper, b.upper)
            if upper.map({ lower.lexicographicallyPrecedes($0) }) ?? true {
                let isPoint = (a.isPoint && a.lower == lower && a.upper == upper) || (b.isPoint && b.lower == lower && b.upper == upper)
                result.append(Interval(lower: lower, upper: upper, isPoint: isPoint))
            }
            // Advance the interval that ends first.
            if ValueRanges.minimum(a.upper, b.upper) == a.upper { left += 1 } else { right += 1 }
        }
        return ValueRanges(result)
    }

    /// The values of `self` that are not in `removed`.
    package func subtracting(_ removed: ValueRanges) -> ValueRanges {
        var complement: [Interval] = []
        var start: [UInt8] = []
        for interval in removed.intervals {
            if start.lexicographicallyPrecedes(interval.lower) {
                complement.append(Interval(lower: start, upper: interval.lower, isPoint: false))
            }
            guard let upper = interval.upper else { return intersection(ValueRanges(complement)) }
            start = upper
        }
        complement.append(Interval(lower: start, upper: nil, isPoint: false))
        return intersection(ValueRanges(complement))
    }

    /// The smaller of two upper bounds (`nil` is unbounded).
    private static func minimum(_ a: [UInt8]?, _ b: [UInt8]?) -> [UInt8]? {
        guard let a else { return b }
        guard let b else { return a }
        return a.lexicographicallyPrecedes(b) ? a : b
    }
}
