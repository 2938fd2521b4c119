import DocumentModel

extension Query {
    /// Runs the query.
    ///
    /// - Parameter source: `.default` asks the server and falls back to the local cache when
    ///   the server cannot be reached; `.server` asks the server only; `.cache` runs the query
    ///   over the cache only. Pending writes of this instance are applied in every case.
    /// - Throws: `FirestoreError`: `.invalidArgument` for an invalid query, `.permissionDenied`
    ///   when the rules do not allow listing every document it could return.
    public func getDocuments(source: FirestoreSource = .default) async throws -> QuerySnapshot {
        let query = try state.modelQuery(in: firestore.database)
        let (documents, isFromCache) = try await firestore.sync.runQuery(query, source: source)
        return snapshot(documents, isFromCache: isFromCache)
    }

    /// The results in the query's order (reversing a `limit(toLast:)` query's reversed run).
    func ordered<Element>(_ documents: [Element]) -> [Element] {
        state.limitToLast ? documents.reversed() : documents
    }

    /// A one-time read's snapshot: every document is an addition.
    func snapshot(_ documents: [LocalDocument], isFromCache: Bool) -> QuerySnapshot {
        let metadata = SnapshotMetadata(
            hasPendingWrites: documents.contains(where: \.hasPendingWrites), isFromCache: isFromCache)
        let snapshots = ordered(documents).map { QueryDocumentSnapshot($0, firestore: firestore, isFromCache: isFromCache) }
        let changes = snapshots.enumerated().map { index, document in
            DocumentChange(type: .added, document: document, oldIndex: -1, newIndex: index)
        }
        return QuerySnapshot(query: self, documents: snapshots, documentChanges: changes, metadata: metadata)
    }
}
