package import DocumentModel

/// A validated vector search (`FindNearest`), applied to a query's results in the query's
/// order. Semantics as measured on Google's emulator (`Docs/Compatibility.md`):
/// - documents whose field is not a vector of the query vector's dimension are left out;
/// - results come nearest first: by ascending distance for `euclidean` and `cosine`, by
///   descending dot product for `dotProduct`, with NaN (a zero vector's cosine, say) ordered
///   as Java's `Double.compare` orders it: after every number, so last when ascending and first
///   when descending; equal distances keep the query's order (its `orderBy`, then the name);
/// - a threshold keeps distances at most it (`dotProduct`: at least it), never NaN;
/// - the distance is returned in `distanceResultField` (a top-level field name, replacing a
///   field of that name) before the query's projection applies.
package struct NearestNeighbors: Sendable {
    package enum Measure: Sendable {
        case euclidean, cosine, dotProduct
    }

    /// The largest `limit` Firestore accepts.
    package static let maxLimit = 1000

    package let field: FieldPath
    package let queryVector: [Double]
    package let measure: Measure
    package let limit: Int
    package let resultField: String?
    package let threshold: Double?

    /// Validates `search`, part of `query`, with Google's emulator's messages.
    package init(validating search: FindNearest, in query: StructuredQuery) throws {
        if query.limit != nil { throw FirestoreError.invalidArgument("A query limit cannot be used with FindNearest") }
        if query.offset != 0 { throw FirestoreError.invalidArgument("A query offset cannot be used with FindNearest") }
        if query.startAt != nil || query.endAt != nil {
            throw FirestoreError.invalidArgument("A cursor cannot be used with FindNearest")
        }
        try QueryValidator.validateFieldPath(search.vectorField)
        guard let limit = search.limit, limit > 0, limit <= NearestNeighbors.maxLimit else {
            throw FirestoreError.invalidArgument(
                "FindNearest.limit must be a positive integer of no more than \(NearestNeighbors.maxLimit)")
        }
        measure =
            switch search.distanceMeasure {
            case .euclidean: .euclidean
            case .cosine: .cosine
            case .dotProduct: .dotProduct
            case .unknown: throw FirestoreError.invalidArgument("Unknown Distance Measure.")
            }
        queryVector = try VectorValidator.validateQueryVector(search.queryVector)
        if let threshold = search.distanceThreshold, !threshold.isFinite {
            throw FirestoreError.invalidArgument("distanceThreshold must be a finite number.")
        }
        if let name = search.distanceResultField, ResourcePath.isReserved(name) {
            throw FirestoreError.invalidArgument("The distanceResultField.property.name \"\(name)\" is reserved.")
        }
        field = search.vectorField
        self.limit = limit
        resultField = search.distanceResultField
        threshold = search.distanceThreshold
    }

    /// The nearest of `documents` (in the query's order), nearest first, with their distance.
    package func nearest(_ documents: [Document]) -> [Document] {
        var ranked: [(distance: Double, position: Int, document: Document)] = []
        for (position, document) in documents.enumerated() {
            guard let vector = document.fields.value(at: field)?.vectorElements, vector.count == queryVector.count
            else { continue }
            var distance = distance(to: vector)
            if distance.isNaN { distance = .nan }  // x86 gives `0 / 0` the sign bit; Java's NaN has none
            if let threshold, !(measure == .dotProduct ? distance >= threshold : distance <= threshold) { continue }
            ranked.append((distance, position, document))
        }
        let descending = measure == .dotProduct
        ranked.sort { left, right in
            let order = Value.compareVectorElements(left.distance, right.distance)
            if order != 0 { return descending ? order > 0 : order < 0 }
            return left.position < right.position
        }
        return ranked.prefix(limit).map { entry in
            guard let resultField else { return entry.document }
            var document = entry.document
            document.fields[resultField] = .double(entry.distance)
            return document
        }
    }

    /// The distance (or, for `dotProduct`, the similarity) of `vector` from the query vector,
    /// computed as Google's emulator does (the same bits for cosine and dot product).
    package func distance(to vector: [Double]) -> Double {
        switch measure {
        case .euclidean:
            var sum = 0.0
            for (a, b) in zip(vector, queryVector) {
                let difference = a - b
                sum.addProduct(difference, difference)
            }
            return sum.squareRoot()
        case .cosine:
            var dot = 0.0
            var left = 0.0
            var right = 0.0
            for (a, b) in zip(vector, queryVector) {
                dot += a * b
                left += a * a
                right += b * b
            }
            return 1 - dot / (left * right).squareRoot()
        case .dotProduct:
            var dot = 0.0
            for (a, b) in zip(vector, queryVector) { dot += a * b }
            return dot
        }
    }
}
