package import DocumentModel

/// A query after validation, with Firestore's implicit orders added and its filter compiled.
package struct PreparedQuery: Sendable {
    package let scope: QueryScope
    /// The whole filter, evaluated on every candidate document; `nil` for none.
    package let filter: CompiledFilter?
    /// The filter in disjunctive normal form (at least one conjunction; `[[]]` for no filter).
    /// `in` and `array-contains-any` stay single predicates.
    package let conjunctions: [[QueryPredicate]]
    /// Explicit orders, then implicit ones; the last is always `__name__`.
    package let orders: [Order]
    package let startAt: QueryCursor?
    package let endAt: QueryCursor?
    package let offset: Int
    package let limit: Int?
    /// The fields to return, `nil` for all.
    package let projection: [FieldPath]?
    /// The vector search applied to the results, if any.
    package var nearest: NearestNeighbors? = nil

    /// Whether some predicate can never match (the query is empty whatever is stored).
    package var isProvablyEmpty: Bool {
        limit == 0 || conjunctions.allSatisfy { conjunction in conjunction.contains { $0.ranges.isEmpty } }
    }
}
