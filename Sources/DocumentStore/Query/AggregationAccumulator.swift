import DocumentModel

/// Firestore's `sum` and `avg` of one field over a query's results, as Google's emulator
/// computes them (measured; see `Docs/Compatibility.md`):
/// - only integers and doubles count; other values and missing fields are skipped;
/// - integers add exactly: the sum stays an integer while it fits in 64 bits, and becomes the
///   nearest double when it does not;
/// - once a double is added the sum is a double; NaN makes it NaN, `inf + -inf` too;
/// - the average is the sum (as a double) divided by the number of numbers, null for none;
///   the sum of none is the integer 0.
///
/// Doubles add with Neumaier's compensated summation in result order. The emulator's order is
/// not its result order, so the last bits of a double sum can differ from it.
struct AggregationAccumulator {
    private var integers: Int128 = 0
    private var doubles = 0.0
    private var compensation = 0.0
    /// The plain running sum of the doubles, which is what infinities and NaN give.
    private var plainDoubles = 0.0
    private var sawDouble = false
    private var numbers = 0

    mutating func add(_ value: Value) {
        switch value {
        case .integer(let integer):
            integers += Int128(integer)
            numbers += 1
        case .double(let double):
            plainDoubles += double
            let total = doubles + double
            compensation += abs(doubles) >= abs(double) ? (doubles - total) + double : (double - total) + doubles
            doubles = total
            sawDouble = true
            numbers += 1
        default:
            break
        }
    }

    /// The sum: an integer, or a double once a double was added or the integers overflowed.
    var sum: Value {
        if !sawDouble, let exact = Int64(exactly: integers) { return .integer(exact) }
        return .double(sumAsDouble)
    }

    /// The average, or null when no number was added.
    var average: Value {
        numbers == 0 ? .null : .double(sumAsDouble / Double(numbers))
    }

    private var sumAsDouble: Double {
        guard sawDouble else { return Double(integers) }
        let doubleSum = plainDoubles.isFinite ? doubles + compensation : plainDoubles
        return Double(integers) + doubleSum
    }
}
