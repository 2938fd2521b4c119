/// A server-side change to one field, applied after the write's own fields.
///
/// ```swift
/// FieldTransform(try FieldPath("updatedAt"), .serverTimestamp)
/// FieldTransform(try FieldPath("visits"), .increment(1))
/// ```
public struct FieldTransform: Sendable, Hashable {
    /// What the transform does.
    public enum Kind: Sendable, Hashable {
        /// Sets the field to the commit time.
        case serverTimestamp
        /// Adds a number; integers saturate at `Int64` bounds, a double makes the result a double.
        case increment(Value)
        /// Keeps the larger of the field and the number.
        case maximum(Value)
        /// Keeps the smaller of the field and the number.
        case minimum(Value)
        /// Appends each element not already present (array union).
        case appendMissingElements([Value])
        /// Removes every element equal to one of these.
        case removeAllFromArray([Value])
    }

    /// The field the transform changes.
    public var fieldPath: FieldPath
    /// What it does.
    public var kind: Kind

    public init(_ fieldPath: FieldPath, _ kind: Kind) {
        self.fieldPath = fieldPath
        self.kind = kind
    }
}
