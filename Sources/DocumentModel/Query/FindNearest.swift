/// Firestore's vector search (`StructuredQuery.findNearest`): the documents whose vector field
/// is nearest to a query vector, after the query's filters, at most `limit` of them.
///
/// ```swift
/// let nearest = FindNearest(
///     vectorField: try FieldPath("embedding"), queryVector: .vector([0.1, 0.2, 0.3]),
///     distanceMeasure: .cosine, limit: 10, distanceResultField: "distance")
/// ```
public struct FindNearest: Sendable, Hashable {
    /// How distance is measured.
    public enum DistanceMeasure: Sendable, Hashable {
        /// The straight-line distance; smaller is nearer.
        case euclidean
        /// One minus the cosine of the angle between the vectors; smaller is nearer.
        case cosine
        /// The dot product; larger is nearer.
        case dotProduct
        /// A measure the request named that Firestore does not know (refused by the engine).
        case unknown(Int)
    }

    /// The field holding each document's vector; documents without a vector of the query
    /// vector's dimension there are left out.
    public var vectorField: FieldPath
    /// The vector searched for (a vector value; the engine refuses anything else).
    public var queryVector: Value
    /// How distance is measured.
    public var distanceMeasure: DistanceMeasure
    /// The most documents to return (1 to 1,000); `nil` if the request had none (refused).
    public var limit: Int?
    /// A top-level field name to return each document's distance in, if any.
    public var distanceResultField: String?
    /// Only documents at most this far (for `dotProduct`: at least this similar).
    public var distanceThreshold: Double?

    public init(
        vectorField: FieldPath, queryVector: Value, distanceMeasure: DistanceMeasure, limit: Int?,
        distanceResultField: String? = nil, distanceThreshold: Double? = nil
    ) {
        self.vectorField = vectorField
        self.queryVector = queryVector
        self.distanceMeasure = distanceMeasure
        self.limit = limit
        self.distanceResultField = distanceResultField
        self.distanceThreshold = distanceThreshold
    }
}
