import DocumentModel
import QueryEngine

/// What a `Query` has been built from, and the first error its building met.
struct QueryState: Sendable, Equatable {
    /// The path of the document the collection is under ("" for the root).
    var parent: String
    var collectionID: String
    var allDescendants: Bool
    var filters: [QueryFilter] = []
    var orders: [Order] = []
    var startAt: QueryCursor?
    var endAt: QueryCursor?
    var limit: Int?
    var limitToLast = false
    var error: FirestoreError?

    init(parent: String, collectionID: String, allDescendants: Bool) {
        self.parent = parent
        self.collectionID = collectionID
        self.allDescendants = allDescendants
    }

    mutating func setCursor(_ cursor: QueryCursor, start: Bool) {
        if start { startAt = cursor } else { endAt = cursor }
    }

    /// The orders Firestore applies: the explicit ones, then the implied ones, as the view
    /// engine derives them (the store's rules), `__name__` last.
    func effectiveOrders(in database: DatabaseID) throws -> [Order] {
        let parentPath = parent.isEmpty ? ResourcePath.root : try ResourcePath(parent)
        let resolve = DocumentIDResolver(
            database: database, collection: try parentPath.appending(collectionID), isGroup: allDescendants)
        return try effectiveOrders(filter: try resolvedFilter(resolve), parent: parentPath, in: database)
    }

    private func effectiveOrders(filter: QueryFilter?, parent: ResourcePath, in database: DatabaseID) throws -> [Order] {
        let structured = StructuredQuery(
            from: CollectionSelector(collectionID: collectionID, allDescendants: allDescendants), filter: filter,
            orderBy: orders)
        return try QueryView(DocumentModel.Query(database: database, parent: parent, structured: structured)).orders
    }

    private func resolvedFilter(_ resolve: DocumentIDResolver) throws -> QueryFilter? {
        switch filters.count {
        case 0: nil
        case 1: try resolve.filter(filters[0])
        default: .composite(.and, try filters.map(resolve.filter))
        }
    }

    /// The model query in `database`, with `limit(toLast:)` turned into a reversed query (whose
    /// results the caller reverses) and document-id strings into references. Aggregations
    /// (`namingImpliedOrders == false`) send only the explicit orders: the store refuses sums
    /// and averages ordered by fields they do not aggregate.
    func modelQuery(in database: DatabaseID, namingImpliedOrders: Bool = true) throws -> DocumentModel.Query {
        if let error { throw error }
        let parentPath = parent.isEmpty ? ResourcePath.root : try ResourcePath(parent)
        let collectionPath = try parentPath.appending(collectionID)
        let resolve = DocumentIDResolver(database: database, collection: collectionPath, isGroup: allDescendants)
        let filter = try resolvedFilter(resolve)
        let allOrders = try effectiveOrders(filter: filter, parent: parentPath, in: database)
        var orders = orders
        var startAt = startAt
        var endAt = endAt
        if limitToLast {
            guard !orders.isEmpty else {
                throw FirestoreError.invalidArgument(
                    "limit(toLast:) queries require specifying at least one order(by:) clause")
            }
            orders = allOrders.map { Order($0.field, $0.direction == .ascending ? .descending : .ascending) }
            startAt = self.endAt.map { QueryCursor(values: $0.values, before: !$0.before) }
            endAt = self.startAt.map { QueryCursor(values: $0.values, before: !$0.before) }
        }
        // As the SDKs do, the request names every order, the implied ones included, so that
        // cursors may hold a value for each.
        if !limitToLast && namingImpliedOrders { orders = allOrders }
        let structured = StructuredQuery(
            from: CollectionSelector(collectionID: collectionID, allDescendants: allDescendants), filter: filter,
            orderBy: orders, startAt: try startAt.map { try resolve.cursor($0, orders: allOrders) },
            endAt: try endAt.map { try resolve.cursor($0, orders: allOrders) }, limit: limit)
        return DocumentModel.Query(database: database, parent: parentPath, structured: structured)
    }
}

/// Turns document-id strings compared with `FieldPath.documentID()` into references, as the
/// SDK does: an id in the queried collection, or a path for collection-group queries.
private struct DocumentIDResolver {
    let database: DatabaseID
    let collection: ResourcePath
    let isGroup: Bool

    func filter(_ filter: QueryFilter) throws -> QueryFilter {
        switch filter {
        case .field(let path, let op, let value) where path.isDocumentName:
            if case .array(let elements) = value, op == .in || op == .notIn {
                return .field(path, op, .array(try elements.map(reference)))
            }
            return .field(path, op, try reference(value))
        case .composite(let op, let filters):
            return .composite(op, try filters.map(self.filter))
        default:
            return filter
        }
    }

    func cursor(_ cursor: QueryCursor, orders: [Order]) throws -> QueryCursor {
        guard cursor.values.count <= orders.count else {
            throw FirestoreError.invalidArgument(
                "Invalid query. You are trying to start or end a query using more values than were specified in the order by.")
        }
        var values = cursor.values
        for (index, order) in zip(orders.indices, orders) where index < values.count && order.field.isDocumentName {
            values[index] = try reference(values[index])
        }
        return QueryCursor(values: values, before: cursor.before)
    }

    private func reference(_ value: Value) throws -> Value {
        guard case .string(let id) = value else { return value }
        if isGroup {
            return .reference(try DocumentName(database, try ResourcePath(id)))
        }
        guard !id.contains("/") else {
            throw FirestoreError.invalidArgument(
                "Invalid query. When querying a collection by FieldPath.documentID() you must provide a plain document ID, but '\(id)' contains a '/' character.")
        }
        return .reference(try DocumentName(database, try collection.appending(id)))
    }
}
