/// A query of one database: a parent (the database root or a document) and a structured query
/// over the collections below it, as in Firestore's `RunQueryRequest`.
///
/// ```swift
/// let query = Query(
///     database: db, parent: .root,
///     structured: StructuredQuery(
///         from: .collection("users"),
///         filter: .field(try FieldPath("age"), .greaterThan, 30),
///         orderBy: [Order(try FieldPath("age"), .descending)],
///         limit: 20))
/// ```
public struct Query: Sendable, Hashable {
    /// The database queried.
    public var database: DatabaseID
    /// The document under which the collections are queried, or the root.
    public var parent: ResourcePath
    /// What to select, from where, filtered and ordered how.
    public var structured: StructuredQuery

    public init(database: DatabaseID, parent: ResourcePath, structured: StructuredQuery) {
        self.database = database
        self.parent = parent
        self.structured = structured
    }
}

/// Firestore's `StructuredQuery`: projection, collection selector, filter, orders, cursors,
/// offset, limit and vector search. Validation against Firestore's rules happens in the query engine.
public struct StructuredQuery: Sendable, Hashable {
    /// The fields to return (`select`); `nil` returns whole documents, `[]` or `[__name__]`
    /// returns names only.
    public var select: [FieldPath]?
    /// The collections to query.
    public var from: CollectionSelector
    /// The filter, if any.
    public var filter: QueryFilter?
    /// The explicit orders; the engine adds Firestore's implicit ones.
    public var orderBy: [Order]
    /// Where to start, in the query's order.
    public var startAt: QueryCursor?
    /// Where to end, in the query's order.
    public var endAt: QueryCursor?
    /// How many results to skip.
    public var offset: Int
    /// The most results to return.
    public var limit: Int?
    /// A vector search over the filtered documents, if any (then without cursors, offset or
    /// limit; the search has its own limit).
    public var findNearest: FindNearest?

    public init(
        select: [FieldPath]? = nil, from: CollectionSelector, filter: QueryFilter? = nil, orderBy: [Order] = [],
        startAt: QueryCursor? = nil, endAt: QueryCursor? = nil, offset: Int = 0, limit: Int? = nil,
        findNearest: FindNearest? = nil
    ) {
        self.select = select
        self.from = from
        self.filter = filter
        self.orderBy = orderBy
        self.startAt = startAt
        self.endAt = endAt
        self.offset = offset
        self.limit = limit
        self.findNearest = findNearest
    }
}

/// The collections a query reads: one collection id directly under the parent, or every
/// collection with that id at any depth below it (a collection-group query). An empty id with
/// `allDescendants` means every collection below the parent.
public struct CollectionSelector: Sendable, Hashable {
    /// The collection id.
    public var collectionID: String
    /// Whether collections at any depth below the parent are included.
    public var allDescendants: Bool

    public init(collectionID: String, allDescendants: Bool = false) {
        self.collectionID = collectionID
        self.allDescendants = allDescendants
    }

    /// The collection `id` directly under the parent.
    public static func collection(_ id: String) -> CollectionSelector { CollectionSelector(collectionID: id) }

    /// Every collection named `id` below the parent.
    public static func collectionGroup(_ id: String) -> CollectionSelector {
        CollectionSelector(collectionID: id, allDescendants: true)
    }
}

/// One order of a query.
public struct Order: Sendable, Hashable {
    /// The direction of an order.
    public enum Direction: Sendable, Hashable {
        case ascending
        case descending
    }

    /// The field ordered by (`__name__` for the document name).
    public var field: FieldPath
    /// The direction.
    public var direction: Direction

    public init(_ field: FieldPath, _ direction: Direction = .ascending) {
        self.field = field
        self.direction = direction
    }
}

/// A position in a query's order: values for the order-by fields (in order), and whether the
/// position is just before them (`before == true`) or just after them.
public struct QueryCursor: Sendable, Hashable {
    /// One value per order-by field, a prefix of them at least.
    public var values: [Value]
    /// For `startAt`: include the position (true) or start after it (false). For `endAt`: end
    /// before the position (true) or include it (false), as in Firestore's `Cursor.before`.
    public var before: Bool

    public init(values: [Value], before: Bool) {
        self.values = values
        self.before = before
    }
}
