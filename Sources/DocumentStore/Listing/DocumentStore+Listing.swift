public import DocumentModel
import QueryEngine
import LevelDB

extension DocumentStore {
    /// One page of the documents directly in the collection `collectionID` under `parent` (the
    /// root or a document), in name order, as of `readTime` (the latest commit if `nil`), as
    /// Firestore's `ListDocuments` returns them.
    ///
    /// - Parameters:
    ///   - collectionID: the collection; empty for every collection directly under `parent`.
    ///   - pageSize: the most documents per page; 0 for all.
    ///   - pageToken: the previous page's `nextPageToken`.
    ///   - showMissing: also list documents that do not exist but have documents below them,
    ///     with no fields and no times.
    ///   - mask: return only these fields (`[]` for none); `nil` for all.
    /// - Throws: `.invalidArgument` for a parent that is a collection, a negative page size or a
    ///   page token this listing did not issue.
    public func listDocuments(
        parent: ResourcePath, collectionID: String, of databaseID: DatabaseID, pageSize: Int = 0,
        pageToken: String? = nil, showMissing: Bool = false, mask: [FieldPath]? = nil, readTime: Timestamp? = nil
    ) throws -> DocumentListPage {
        try ListingValidator.validateParent(parent, databaseID)
        try ListingValidator.validatePageSize(pageSize)
        if !collectionID.isEmpty { try ResourcePath.validate(id: collectionID, in: parent.segments + [collectionID]) }
        let scopeSegments = parent.segments + (collectionID.isEmpty ? [] : [collectionID])
        let reading = "The documents listed in '\(parent)'" + (collectionID.isEmpty ? "" : " collection '\(collectionID)'")
        return try withSnapshotReader(databaseID, readTime: readTime, reading: reading) { reader in
            let walker = try SubtreeWalker(reader)
            let scope = walker.subtreePrefix(scopeSegments)
            let start = try pageToken.map { try PageToken.position($0, under: scope) }.map { after in
                KeyRange.successor(ofPrefix: after) ?? after
            } ?? scope
            var documents: [ListedDocument] = []
            var lastPosition: [UInt8]?
            var hasMore = false
            try walker.forEachChild(under: scope, depth: parent.segments.count + 2, from: start) { path in
                let listed: ListedDocument
                if let document = try walker.document(path) {
                    listed = .document(Projection.apply(mask, to: document))
                } else if showMissing, try walker.hasDescendant(path) {
                    listed = .missing(try DocumentName(databaseID, ResourcePath(segments: path)))
                } else {
                    return true
                }
                if pageSize > 0, documents.count == pageSize {
                    hasMore = true
                    return false
                }
                documents.append(listed)
                lastPosition = walker.subtreePrefix(path)
                return true
            }
            return DocumentListPage(
                documents: documents, nextPageToken: hasMore ? lastPosition.map(PageToken.make) : nil,
                readTime: reader.readTime)
        }
    }

    /// One page of the ids of the collections directly under `parent` (the root or a document)
    /// that hold at least one document at any depth, as of `readTime`, as Firestore's
    /// `ListCollectionIds` returns them.
    ///
    /// - Throws: `.invalidArgument` for a parent that is a collection, a negative page size or a
    ///   page token this listing did not issue.
    public func listCollectionIDs(
        parent: ResourcePath, of databaseID: DatabaseID, pageSize: Int = 0, pageToken: String? = nil,
        readTime: Timestamp? = nil
    ) throws -> CollectionIDPage {
        try ListingValidator.validateParent(parent, databaseID)
        try ListingValidator.validatePageSize(pageSize)
        let reading = "The collections listed in '\(parent)'"
        return try withSnapshotReader(databaseID, readTime: readTime, reading: reading) { reader in
            let walker = try SubtreeWalker(reader)
            let scope = walker.subtreePrefix(parent.segments)
            let start = try pageToken.map { try PageToken.position($0, under: scope) }.map { after in
                KeyRange.successor(ofPrefix: after) ?? after
            } ?? scope
            var ids: [String] = []
            var lastPosition: [UInt8]?
            var hasMore = false
            try walker.forEachChild(under: scope, depth: parent.segments.count + 1, from: start) { path in
                guard try walker.hasDescendant(path) else { return true }
                if pageSize > 0, ids.count == pageSize {
                    hasMore = true
                    return false
                }
                ids.append(path[path.count - 1])
                lastPosition = walker.subtreePrefix(path)
                return true
            }
            return CollectionIDPage(
                collectionIDs: ids, nextPageToken: hasMore ? lastPosition.map(PageToken.make) : nil,
                readTime: reader.readTime)
        }
    }
}
