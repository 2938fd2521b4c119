package import DocumentModel

/// Firestore's field transforms, with its number semantics:
/// - increment: integer + integer saturates at the `Int64` bounds; a double on either side
///   makes a double; a non-number (or missing) field becomes the operand;
/// - maximum and minimum: mixed integer and double take the type of the winning operand; when
///   they are equal (`3` and `3.0`, or `0` and `-0.0`) the stored value stays; NaN wins;
/// - array union appends each missing element once; array remove removes every equal element;
///   both treat `3` and `3.0` as equal, and NaN as equal to NaN.
package enum FieldTransformer {
    /// The new field value and the transform's result.
    package static func apply(
        _ kind: FieldTransform.Kind, to current: Value?, commitTime: Timestamp
    ) throws -> (value: Value, result: Value) {
        switch kind {
        case .serverTimestamp:
            let value = Value.timestamp(commitTime)
            return (value, value)
        case .increment(let operand):
            let value = increment(current, by: operand)
            return (value, value)
        case .maximum(let operand):
            let value = extreme(current, operand, keepLarger: true)
            return (value, value)
        case .minimum(let operand):
            let value = extreme(current, operand, keepLarger: false)
            return (value, value)
        case .appendMissingElements(let elements):
            var array = current?.arrayValue ?? []
            for element in elements where !array.contains(element) { array.append(element) }
            return (.array(array), .null)
        case .removeAllFromArray(let elements):
            let array = (current?.arrayValue ?? []).filter { !elements.contains($0) }
            return (.array(array), .null)
        }
    }

    private static func increment(_ current: Value?, by operand: Value) -> Value {
        switch (current, operand) {
        case (.integer(let left)?, .integer(let right)):
            let (sum, overflow) = left.addingReportingOverflow(right)
            if overflow { return .integer(right > 0 ? .max : .min) }
            return .integer(sum)
        case (.integer(let left)?, .double(let right)): return .double(Double(left) + right)
        case (.double(let left)?, .integer(let right)): return .double(left + Double(right))
        case (.double(let left)?, .double(let right)): return .double(left + right)
        default: return operand
        }
    }

    private static func extreme(_ current: Value?, _ operand: Value, keepLarger: Bool) -> Value {
        guard let current, current.isNumber else { return operand }
        if current.isNaN { return current }
        if operand.isNaN { return operand }
        let order = Value.compare(operand, current)
        if order == 0 { return current }
        return (order > 0) == keepLarger ? operand : current
    }
}
