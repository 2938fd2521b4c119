import DocumentModel

/// A vector of doubles, FirebaseFirestore's `VectorValue`: stored as Firestore's vector value,
/// which orders after arrays and before maps (shorter vectors first, then element by element)
/// and is what vector search (`findNearest`) compares. It holds 1 to 2,048 elements, none NaN.
///
/// ```swift
/// try await ref.setData(["embedding": FieldValue.vector([0.12, -0.5, 3.0])])
/// let embedding = try await ref.getDocument().get("embedding") as? VectorValue
/// embedding?.array  // [0.12, -0.5, 3.0]
/// ```
public struct VectorValue: Sendable, Hashable, CustomStringConvertible {
    /// The elements.
    public let array: [Double]

    /// A vector of `array`'s elements.
    public init(_ array: [Double]) {
        self.array = array
    }

    public var description: String { "VectorValue(\(array))" }
}

extension FieldValue {
    /// A vector value of `array`'s elements, to store in a field.
    public static func vector(_ array: [Double]) -> VectorValue { VectorValue(array) }
}
