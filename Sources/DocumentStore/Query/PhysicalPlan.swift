import DocumentModel
import QueryEngine

/// What the executor runs; `QueryPlan` is its public description.
indirect enum PhysicalPlan {
    /// Nothing to read.
    case empty
    /// Paths in name order: the intersection of point sets, each the union of its values'
    /// entries, within name bounds.
    case nameOrdered([PointSet], direction: Order.Direction, bounds: PathBounds)
    /// The value entries of `field` within `ranges`, in value order (then name order).
    case fieldOrdered(field: FieldPath, ranges: ValueRanges, direction: Order.Direction)
    /// The documents table at the read version, in name order within name bounds.
    case documentScan(bounds: PathBounds)
    /// Each plan's candidates, merged.
    case union([PhysicalPlan])
}

/// Equality-like index entries of one field: the entries of each of `values` (encoded).
struct PointSet {
    let field: FieldPath
    let kind: IndexKind
    let ranges: ValueRanges

    /// The entries a point predicate (whose ranges are points) accepts.
    init(_ predicate: QueryPredicate) {
        field = predicate.field
        kind = predicate.kind
        ranges = predicate.ranges
    }
}

/// A query's plan: what runs, how it is described, and the name filters that can be checked
/// on candidate paths before their documents are read.
struct PlannedQuery {
    let physical: PhysicalPlan
    var description: QueryPlan
    /// Predicates on `__name__` every result passes (empty for `OR` plans).
    let namePredicates: [QueryPredicate]
    /// How candidates arrive relative to the query's order.
    let arrival: Arrival

    enum Arrival {
        /// Exactly in the query's order.
        case inOrder
        /// In the order of the first ordered field; ties need sorting.
        case inRunsOfFirstField
        /// In no useful order: everything is collected and sorted.
        case unordered
    }
}
