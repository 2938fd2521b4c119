import DocumentModel
import QueryEngine

extension QueryPlanner {
    /// The plan, and for a query whose only aggregations are counts, whether the count can
    /// read index keys only: when the plan's index entries are exactly the matching documents
    /// (or, for a document scan without field filters, the documents it finds, which are then
    /// counted without being decoded).
    /// That holds for one conjunction without cursors whose field filters are all read by the
    /// plan (the equality-like filters of an equality scan, or the filters of the scanned field
    /// of an ordered scan) and whose ordered fields are all filtered (a filtered field exists);
    /// `__name__` filters are checked on the keys' paths.
    func plan(countingOnly: Bool) throws -> PlannedQuery {
        var planned = try plan()
        guard countingOnly, query.startAt == nil, query.endAt == nil else { return planned }
        let live = query.conjunctions.filter { !$0.contains { $0.ranges.isEmpty } }
        let fields = live.first?.filter { !$0.isOnName } ?? []
        let covered: Bool
        switch planned.physical {
        case .empty:
            covered = true
        case .nameOrdered(let sets, _, _):
            covered = live.count == 1 && sets.count == fields.count && fields.allSatisfy(\.ranges.isPoints)
        case .fieldOrdered(let field, _, _):
            covered = live.count == 1 && fields.allSatisfy { $0.field == field && $0.kind == .value }
        case .documentScan:
            // Every live document in scope and bounds is a match: counted without decoding.
            covered = live.count == 1 && fields.isEmpty
        case .union:
            covered = false
        }
        let orderedFieldsExist = query.orders.allSatisfy { order in
            order.field.isDocumentName || fields.contains { $0.field == order.field }
        }
        planned.description.countsIndexKeysOnly = covered && orderedFieldsExist
        return planned
    }
}
