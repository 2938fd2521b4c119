import DocumentModel
import QueryEngine
import LevelDB

/// Chooses how to answer a prepared query.
///
/// The rules, in order:
/// 1. A filter that no value passes (`== null`, a range on NaN, ...) or `limit 0`: **empty**.
/// 2. A read at a past read time, or a query of every collection (empty collection id):
///    **document scan** (the index holds only the current version and only named groups).
/// 3. One conjunction (no `OR`), ordered first by `__name__` (no order and no inequality):
///    the equality-like filters are all point sets, read in name order and intersected by a
///    zig-zag join (**equality index scan**), streaming in query order (a limit stops it); or,
///    without any, the documents table within the name bounds (**collection scan**), which
///    streams in ascending name order and is sorted for a descending one. The index has no
///    entry per document: a create writes one LevelDB entry per indexed value and no more.
/// 4. One conjunction ordered first by a field `F`: the **ordered index scan** of `F`, bounded
///    by `F`'s filters and the cursors, streams in query order (ties on `F` are sorted when
///    more orders follow). If another filter could drive instead (equality-like filters, or a
///    range on another field), each such candidate set is counted up to `estimateCap` entries
///    and the smallest is used (**index candidates**, then sorted) when it stays under the cap
///    and is no larger than the ordered scan's count: a selective equality beats scanning the
///    order, a large one does not.
/// 5. An `OR`: each conjunction by the smallest of its candidate sets (or a collection scan),
///    united, then sorted (**union**).
///
/// Every candidate is then checked against the whole filter on its document, so a plan only has
/// to produce a superset in the promised order.
struct QueryPlanner {
    let query: PreparedQuery
    let reader: SnapshotReader

    /// Candidate sets larger than this are not counted further when choosing a plan.
    static let estimateCap = 1000

    func plan() throws -> PlannedQuery {
        let orders = query.orders
        if query.isProvablyEmpty { return planned(.empty, .empty, arrival: .inOrder) }
        let live = query.conjunctions.filter { !$0.contains { $0.ranges.isEmpty } }
        if reader.isPast || query.scope.collectionID.isEmpty {
            let inOrder = orders.count == 1 && orders[0].direction == .ascending
            let names = live.count == 1 ? live[0].filter(\.isOnName) : []
            return planned(
                .documentScan(bounds: nameBounds(names)), .documentScan, arrival: inOrder ? .inOrder : .unordered,
                names: names)
        }
        guard live.count == 1 else {
            let plans = try live.map { try candidates(for: $0) }
            return planned(
                .union(plans.map(\.physical)), .union(plans.map(\.description)), arrival: .unordered)
        }
        return try plan(live[0])
    }

    private func planned(
        _ physical: PhysicalPlan, _ strategy: QueryPlan.Strategy, arrival: PlannedQuery.Arrival,
        names: [QueryPredicate] = []
    ) -> PlannedQuery {
        PlannedQuery(
            physical: physical,
            description: QueryPlan(strategy: strategy, streamsInOrder: arrival != .unordered, countsIndexKeysOnly: false),
            namePredicates: names, arrival: arrival)
    }

    /// Rules 3 and 4.
    private func plan(_ conjunction: [QueryPredicate]) throws -> PlannedQuery {
        let names = conjunction.filter(\.isOnName)
        let fields = conjunction.filter { !$0.isOnName }
        let first = query.orders[0]
        if first.field.isDocumentName {
            let bounds = nameBounds(names).intersection(cursorPathBounds(first.direction))
            if bounds.isEmpty { return planned(.empty, .empty, arrival: .inOrder) }
            let points = fields.filter(\.ranges.isPoints)
            guard !points.isEmpty else {
                return planned(
                    .documentScan(bounds: bounds), .collectionScan,
                    arrival: first.direction == .ascending ? .inOrder : .unordered, names: names)
            }
            let physical = PhysicalPlan.nameOrdered(points.map(PointSet.init), direction: first.direction, bounds: bounds)
            return planned(physical, .equalityIndexScan(fields: points.map(\.field)), arrival: .inOrder, names: names)
        }
        var ranges = cursorRanges(first.direction)
        for predicate in fields where predicate.field == first.field && predicate.kind == .value {
            ranges = ranges.intersection(predicate.ranges)
        }
        if ranges.isEmpty { return planned(.empty, .empty, arrival: .inOrder) }
        let ordered = PhysicalPlan.fieldOrdered(field: first.field, ranges: ranges, direction: first.direction)
        let exact = query.orders.count == 2 && query.orders[1].direction == first.direction
        let orderedPlan = planned(
            ordered, .orderedIndexScan(field: first.field, descending: first.direction == .descending),
            arrival: exact ? .inOrder : .inRunsOfFirstField, names: names)
        let others = fields.filter { $0.field != first.field || $0.kind != .value }
        guard !others.isEmpty else { return orderedPlan }
        let alternative = try smallestCandidates(others)
        guard alternative.estimate < QueryPlanner.estimateCap,
            alternative.estimate <= (try estimate(ordered))
        else { return orderedPlan }
        return planned(alternative.physical, alternative.strategy, arrival: .unordered, names: names)
    }

    /// Rule 5: one conjunction of an `OR`.
    private func candidates(for conjunction: [QueryPredicate]) throws -> (physical: PhysicalPlan, description: QueryPlan) {
        let fields = conjunction.filter { !$0.isOnName }
        let physical: PhysicalPlan
        let strategy: QueryPlan.Strategy
        if fields.isEmpty {
            physical = .documentScan(bounds: nameBounds(conjunction))
            strategy = .collectionScan
        } else {
            (physical, strategy, _) = try smallestCandidates(fields)
        }
        return (physical, QueryPlan(strategy: strategy, streamsInOrder: false, countsIndexKeysOnly: false))
    }

    /// The smallest candidate set among the equality-like filters (intersected) and the range
    /// filters of each field, with its capped size.
    private func smallestCandidates(
        _ predicates: [QueryPredicate]
    ) throws -> (physical: PhysicalPlan, strategy: QueryPlan.Strategy, estimate: Int) {
        var options: [(PhysicalPlan, QueryPlan.Strategy)] = []
        let points = predicates.filter(\.ranges.isPoints)
        if !points.isEmpty {
            options.append((
                .nameOrdered(points.map(PointSet.init), direction: .ascending, bounds: .all),
                .equalityIndexScan(fields: points.map(\.field))
            ))
        }
        var rangesByField: [FieldPath: ValueRanges] = [:]
        for predicate in predicates where !predicate.ranges.isPoints && predicate.kind == .value {
            rangesByField[predicate.field] = (rangesByField[predicate.field] ?? .all).intersection(predicate.ranges)
        }
        for (field, ranges) in rangesByField.sorted(by: { $0.key < $1.key }) {
            options.append((.fieldOrdered(field: field, ranges: ranges, direction: .ascending), .indexCandidates(field: field)))
        }
        var best: (PhysicalPlan, QueryPlan.Strategy, Int)?
        for (physical, strategy) in options {
            let size = try estimate(physical)
            if best.map({ size < $0.2 }) ?? true { best = (physical, strategy, size) }
        }
        return best!
    }

    /// How many candidates a plan reads, counted up to `estimateCap`.
    private func estimate(_ physical: PhysicalPlan) throws -> Int {
        let source = try CandidateSources.make(physical, reader: reader, scope: query.scope)
        var count = 0
        while count < QueryPlanner.estimateCap, try source.next() != nil { count += 1 }
        return count
    }

    /// The encoded-path bounds that the `__name__` filters of a conjunction allow.
    private func nameBounds(_ predicates: [QueryPredicate]) -> PathBounds {
        var bounds = PathBounds.all
        for predicate in predicates where predicate.isOnName {
            guard let first = predicate.ranges.intervals.first, let last = predicate.ranges.intervals.last else {
                return PathBounds(lower: [0], upper: [0])
            }
            // A lower bound past every reference of the database leaves nothing ([FF] is above
            // every encoded path); an upper bound past them all leaves no upper bound.
            bounds = bounds.intersection(
                PathBounds(lower: pathBound(first.lower) ?? [0xFF], upper: last.upper.flatMap(pathBound)))
        }
        return bounds
    }

    /// A reference-space bound (an encoded reference value) as an encoded-path bound: `[]` when
    /// it lies before every reference of the database, `nil` when after.
    private func pathBound(_ bound: [UInt8]) -> [UInt8]? {
        let prefix = NamePaths.referencePrefix(query.scope.database)
        if bound.starts(with: prefix) { return Array(bound[prefix.count...]) }
        return bound.lexicographicallyPrecedes(prefix) ? [] : nil
    }

    /// Path bounds from the cursors of a query ordered first by `__name__`.
    private func cursorPathBounds(_ direction: Order.Direction) -> PathBounds {
        var bounds = PathBounds.all
        for (cursor, isStart) in [(query.startAt, true), (query.endAt, false)] {
            guard let cursor, case .reference(let name)? = cursor.values.first else { continue }
            let path = StorageKeys.encodedPath(name.path)
            let after = KeyRange.successor(ofPrefix: path) ?? path
            // Whether the cursor's own document is on the kept side.
            let includesCursor = isStart == cursor.before
            if (direction == .ascending) == isStart {
                bounds = bounds.intersection(PathBounds(lower: includesCursor ? path : after, upper: nil))
            } else {
                bounds = bounds.intersection(PathBounds(lower: [], upper: includesCursor ? after : path))
            }
        }
        return bounds
    }

    /// Value bounds on the first ordered field from the cursors: only the first cursor value
    /// bounds the scan, strictly only when it is the cursor's only value.
    private func cursorRanges(_ direction: Order.Direction) -> ValueRanges {
        var ranges = ValueRanges.all
        for (cursor, isStart) in [(query.startAt, true), (query.endAt, false)] {
            guard let cursor, let value = cursor.values.first else { continue }
            let encoding = OrderedKey.encoding(of: value)
            let after = KeyRange.successor(ofPrefix: encoding) ?? encoding
            let strict = cursor.values.count == 1 && isStart != cursor.before
            if (direction == .ascending) == isStart {
                ranges = ranges.intersection(.between(strict ? after : encoding, nil))
            } else {
                ranges = ranges.intersection(.between([], strict ? encoding : after))
            }
        }
        return ranges
    }
}

/// Document names as reference values, whose encodings order like encoded paths after a fixed
/// prefix.
enum NamePaths {
    /// `OrderedKey`'s type tag of references.
    static let referenceTag: UInt8 = 0x23

    /// The encoding of a reference of `database` up to its path.
    static func referencePrefix(_ database: DatabaseID) -> [UInt8] {
        var key = OrderedKey(capacity: 32)
        key.appendByte(referenceTag)
        key.appendString(database.project)
        key.appendString(database.database)
        return key.bytes
    }
}
