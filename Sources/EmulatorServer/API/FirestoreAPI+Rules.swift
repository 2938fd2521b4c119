import DocumentModel
import DocumentStore

/// The security-rules checks the store's `as:` methods do not cover: listing, and the RPCs
/// Google's emulator keeps for the admin whatever the rules say. (Reads are judged by
/// `DocumentStore.authorizeReads(_:documents:as:)` on the documents they returned.)
extension FirestoreAPI {
    /// Checks the `list` permission of `ListDocuments`: a query on the collection with the page
    /// size as its limit. Without a collection id no `match` applies, and Google's emulator
    /// answers `No matching allow statements`.
    func authorizeListing(
        _ database: DatabaseID, parent: ResourcePath, collectionID: String, pageSize: Int, as identity: RequestIdentity
    ) throws {
        guard !identity.isAdmin, store.rules(project: database.project) != nil else { return }
        guard !collectionID.isEmpty else { throw FirestoreError(.permissionDenied, "No matching allow statements") }
        let structured = StructuredQuery(
            from: CollectionSelector(collectionID: collectionID), limit: pageSize > 0 ? pageSize : nil)
        try store.authorize(Query(database: database, parent: parent, structured: structured), as: identity)
    }

    /// Fails unless the caller is the admin: Google's emulator keeps `ListCollectionIds`
    /// ("metadata operations") and `BatchWrite` for the owner, with or without rules.
    static func requireAdmin(_ context: RequestContext, for operations: String) throws {
        guard context.isAdmin else {
            throw FirestoreError(.permissionDenied, "\(operations) require admin authentication.")
        }
    }
}
