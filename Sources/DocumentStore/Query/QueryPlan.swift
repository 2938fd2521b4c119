public import DocumentModel

/// How the store answers a query, as `DocumentStore.explain` reports it.
///
/// ```swift
/// let plan = try store.explain(query)
/// #expect(plan.strategy == .orderedIndexScan(field: try FieldPath("age"), descending: false))
/// print(plan)  // ordered index scan on age ascending, in query order
/// ```
public struct QueryPlan: Sendable, Hashable, CustomStringConvertible {
    /// Where candidate documents come from.
    public indirect enum Strategy: Sendable, Hashable {
        /// No document can match (a filter no value passes, or `limit 0`): nothing is read.
        case empty
        /// The index entries of the first ordered field, in the query's order, within the
        /// bounds of that field's filters and of the cursors: a limit stops the scan early.
        case orderedIndexScan(field: FieldPath, descending: Bool)
        /// The index entries of equality-like filters (`==`, `in`, `array-contains`,
        /// `array-contains-any`, `IS_NULL`, `IS_NAN`) in document-name order, several fields
        /// intersected by a zig-zag join.
        case equalityIndexScan(fields: [FieldPath])
        /// The index entries of one field's filter in value order, then the documents sorted in
        /// the query's order.
        case indexCandidates(field: FieldPath)
        /// Every document of the collection (group) in name order, from its index entries.
        case collectionScan
        /// The stored documents themselves, at the read version: for reads at a past read time
        /// (the index holds only the current version) and queries of every collection.
        case documentScan
        /// One plan per disjunction of an `OR` filter; their documents are merged and sorted.
        case union([QueryPlan])
    }

    /// Where candidate documents come from.
    public var strategy: Strategy
    /// Whether candidates arrive in the query's order (field order with ties sorted per value
    /// counts), so that a limit or an end cursor stops the scan early.
    public var streamsInOrder: Bool
    /// For a count: whether it counts index keys without reading any document.
    public var countsIndexKeysOnly: Bool

    public var description: String {
        var text: String
        switch strategy {
        case .empty: text = "empty: nothing can match"
        case .orderedIndexScan(let field, let descending):
            text = "ordered index scan on \(field) \(descending ? "descending" : "ascending")"
        case .equalityIndexScan(let fields):
            text = "equality index scan on \(fields.map(\.description).joined(separator: " ∩ ")) in name order"
        case .indexCandidates(let field): text = "index candidates from \(field), sorted"
        case .collectionScan: text = "collection scan in name order"
        case .documentScan: text = "document scan at the read version"
        case .union(let plans): text = "union of (" + plans.map(\.description).joined(separator: "; ") + "), sorted"
        }
        if streamsInOrder, strategy != .empty { text += ", in query order" }
        if countsIndexKeysOnly { text += ", counting index keys only" }
        return text
    }
}
