import DocumentModel

/// A sentinel in the data of `setData` or `updateData` that the server turns into a value
/// when it applies the write.
///
/// ```swift
/// try await ref.updateData([
///     "updatedAt": FieldValue.serverTimestamp(),
///     "visits": FieldValue.increment(Int64(1)),
///     "tags": FieldValue.arrayUnion(["swift"]),
///     "draft": FieldValue.delete(),
/// ])
/// ```
public struct FieldValue: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case delete
        case transform(FieldTransform.Kind)
    }

    let kind: Kind
    /// Why the operands could not be converted, reported by the write that uses the sentinel.
    let operandError: FirestoreError?

    /// Removes the field (with `updateData`, or `setData` with `merge`).
    public static func delete() -> FieldValue { FieldValue(kind: .delete, operandError: nil) }

    /// The time the server commits the write.
    public static func serverTimestamp() -> FieldValue { transform(.serverTimestamp) }

    /// Adds `value` to the field's number (a missing or non-numeric field counts as 0).
    public static func increment(_ value: Int64) -> FieldValue { transform(.increment(.integer(value))) }

    /// Adds `value` to the field's number; the result is a double.
    public static func increment(_ value: Double) -> FieldValue { transform(.increment(.double(value))) }

    /// Keeps the larger of the field's number and `value`.
    public static func maximum(_ value: Int64) -> FieldValue { transform(.maximum(.integer(value))) }

    /// Keeps the larger of the field's number and `value`.
    public static func maximum(_ value: Double) -> FieldValue { transform(.maximum(.double(value))) }

    /// Keeps the smaller of the field's number and `value`.
    public static func minimum(_ value: Int64) -> FieldValue { transform(.minimum(.integer(value))) }

    /// Keeps the smaller of the field's number and `value`.
    public static func minimum(_ value: Double) -> FieldValue { transform(.minimum(.double(value))) }

    /// Appends each element the array does not contain yet (a missing or non-array field
    /// becomes the elements).
    public static func arrayUnion(_ elements: [Any]) -> FieldValue {
        arrayTransform(elements, FieldTransform.Kind.appendMissingElements)
    }

    /// Removes every element equal to one of `elements`.
    public static func arrayRemove(_ elements: [Any]) -> FieldValue {
        arrayTransform(elements, FieldTransform.Kind.removeAllFromArray)
    }

    public var description: String {
        switch kind {
        case .delete: "FieldValue.delete()"
        case .transform(.serverTimestamp): "FieldValue.serverTimestamp()"
        case .transform(.increment): "FieldValue.increment()"
        case .transform(.maximum): "FieldValue.maximum()"
        case .transform(.minimum): "FieldValue.minimum()"
        case .transform(.appendMissingElements): "FieldValue.arrayUnion()"
        case .transform(.removeAllFromArray): "FieldValue.arrayRemove()"
        }
    }

    private static func transform(_ kind: FieldTransform.Kind) -> FieldValue {
        FieldValue(kind: .transform(kind), operandError: nil)
    }

    private static func arrayTransform(_ elements: [Any], _ make: ([Value]) -> FieldTransform.Kind) -> FieldValue {
        do {
            let values = try elements.map { try ValueConverter.value(from: $0, at: "", in: nil) }
            return FieldValue(kind: .transform(make(values)), operandError: nil)
        } catch {
            return FieldValue(kind: .transform(make([])), operandError: .wrapping(error))
        }
    }
}
