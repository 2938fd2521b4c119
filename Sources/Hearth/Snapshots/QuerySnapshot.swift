/// The results of a query at one time.
///
/// ```swift
/// let snapshot = try await db.collection("users").getDocuments()
/// print(snapshot.count, snapshot.documents.map(\.documentID))
/// ```
public final class QuerySnapshot: Sendable {
    /// The query run.
    public let query: Query
    /// The documents, in the query's order.
    public let documents: [QueryDocumentSnapshot]
    /// How the results changed since the listener's previous snapshot (every document as
    /// `added` for a first snapshot or a one-time read).
    public let documentChanges: [DocumentChange]
    /// Where the results came from.
    public let metadata: SnapshotMetadata
    /// The documents whose metadata alone changed (a pending write acknowledged), as
    /// `modified` changes at their place.
    let metadataChanges: [DocumentChange]

    init(
        query: Query, documents: [QueryDocumentSnapshot], documentChanges: [DocumentChange], metadata: SnapshotMetadata,
        metadataChanges: [DocumentChange] = []
    ) {
        self.query = query
        self.documents = documents
        self.documentChanges = documentChanges
        self.metadata = metadata
        self.metadataChanges = metadataChanges
    }

    /// The number of documents.
    public var count: Int { documents.count }

    /// Whether there are no documents.
    public var isEmpty: Bool { documents.isEmpty }

    /// The changes; with `includeMetadataChanges`, also the documents whose metadata alone
    /// changed (`hasPendingWrites` after the server acknowledged a write), as `modified`.
    public func documentChanges(includeMetadataChanges: Bool) -> [DocumentChange] {
        guard includeMetadataChanges, !metadataChanges.isEmpty else { return documentChanges }
        return (documentChanges + metadataChanges).sorted { $0.newIndex < $1.newIndex }
    }
}
