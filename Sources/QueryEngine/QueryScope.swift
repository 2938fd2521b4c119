package import DocumentModel

/// The documents a query may return, by name: the collection (or collection group) and the
/// parent they must lie under.
package struct QueryScope: Sendable {
    package let database: DatabaseID
    /// The root or a document.
    package let parent: ResourcePath
    /// The collection id; empty for every collection (a "kindless" query).
    package let collectionID: String
    /// Whether collections at any depth below the parent count, not only direct children.
    package let allDescendants: Bool

    /// Encoded path prefix every document in scope starts with: the parent's segments, and the
    /// collection id for a query of one collection.
    package let pathPrefix: [UInt8]

    package init(database: DatabaseID, parent: ResourcePath, collectionID: String, allDescendants: Bool) {
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
    package var isSingleCollection: Bool { !allDescendants && !collectionID.isEmpty }

    /// Whether a document of any collection, named `path`, lies in scope (for scans that do not
    /// come from the collection group's index).
    package func contains(_ path: ResourcePath) -> Bool {
        let depth = parent.segments.count
        guard path.segments.count >= depth + 2, path.hasPrefix(parent) else { return false }
        if !allDescendants && path.segments.count != depth + 2 { return false }
        return collectionID.isEmpty || path.segments[path.segments.count - 2].utf8.elementsEqual(collectionID.utf8)
    }
}
