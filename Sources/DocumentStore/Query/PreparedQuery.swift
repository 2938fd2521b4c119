import DocumentModel

/// The documents a query may return, by name: the collection (or collection group) and the
/// parent they must lie under.
struct QueryScope: Sendable {
    let database: DatabaseID
    /// The root or a document.
    let parent: ResourcePath
    /// The collection id; empty for every collection (a "kindless" query).
    let collectionID: String
    /// Whether collections at any depth below the parent count, not only direct children.
    let allDescendants: Bool

    /// Encoded path prefix every document in scope starts with: the parent's segments, and the
    /// collection id for a query of one collection.
    let pathPrefix: [UInt8]

    init(database: DatabaseID, parent: ResourcePath, collectionID: String, allDescendants: Bool) {
        self.database = database
        self.parent = parent
        self.collectionID = collectionID
        self.allDescendants = allDescendants
        var prefix = OrderedKey(capacity: 64)
        prefix.appendPathSegments(parent)
        if !allDescendants, !collectionID.isEmpty { prefix.appendString(collectionID) }
        pathPrefix = prefix.bytes
    }

    /// Whether the query reads one collection directly under its parent (not a group).
    var isSingleCollection: Bool { !allDescendants && !collectionID.isEmpty }

    /// Whether a document of the queried collection group, whose encoded path is `path`, lies
    /// in scope: under the parent, and directly in the collection for a one-collection query.
    func contains(encodedPath path: UnsafeRawBufferPointer) throws -> Bool {
        let prefixCount = pathPrefix.count
        guard path.count > prefixCount + 2,
            pathPrefix.withUnsafeBytes({ prefix in path.prefix(prefixCount).elementsEqual(prefix) })
        else { return false }
        guard isSingleCollection else { return true }
        // Exactly one more segment (the document id), then the path's end.
        let idEnd = try EncodedKeyParsing.pathSegmentEnd(in: path, from: prefixCount)
        return idEnd + 2 == path.count
    }

    /// Whether a document of any collection, named `path`, lies in scope (for scans that do not
    /// come from the collection group's index).
    func contains(_ path: ResourcePath) -> Bool {
        let depth = parent.segments.count
        guard path.segments.count >= depth + 2, path.hasPrefix(parent) else { return false }
        if !allDescendants && path.segments.count != depth + 2 { return false }
        return collectionID.isEmpty || path.segments[path.segments.count - 2].utf8.elementsEqual(collectionID.utf8)
    }
}

/// A query after validation, with Firestore's implicit orders added and its filter compiled.
struct PreparedQuery: Sendable {
    let scope: QueryScope
    /// The whole filter, evaluated on every candidate document; `nil` for none.
    let filter: CompiledFilter?
    /// The filter in disjunctive normal form (at least one conjunction; `[[]]` for no filter).
    /// `in` and `array-contains-any` stay single predicates.
    let conjunctions: [[QueryPredicate]]
    /// Explicit orders, then implicit ones; the last is always `__name__`.
    let orders: [Order]
    let startAt: QueryCursor?
    let endAt: QueryCursor?
    let offset: Int
    let limit: Int?
    /// The fields to return, `nil` for all.
    let projection: [FieldPath]?
    /// The vector search applied to the results, if any.
    var nearest: NearestNeighbors? = nil

    /// Whether some predicate can never match (the query is empty whatever is stored).
    var isProvablyEmpty: Bool {
        limit == 0 || conjunctions.allSatisfy { conjunction in conjunction.contains { $0.ranges.isEmpty } }
    }
}
