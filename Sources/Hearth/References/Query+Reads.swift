import DocumentModel

extension Query {
    /// Runs the query.
    ///
    /// - Parameter source: `.cache` answers with this instance's last results of the same
    ///   query (throwing `.unavailable` if it has none, or if one of its own writes may have
    ///   changed them since); `.default` falls back to them only when the database is unavailable.
    /// - Throws: `FirestoreError`: `.invalidArgument` for an invalid query, `.permissionDenied`
    ///   when the rules do not allow listing every document it could return.
    public func getDocuments(source: FirestoreSource = .default) async throws -> QuerySnapshot {
        let query = try state.modelQuery(in: firestore.database)
        if source == .cache { return try cachedSnapshot(query) }
        do {
            let (_, documents) = try await firestore.backend.runQuery(query, transaction: nil, as: firestore.identity)
            firestore.cache.record(documents, for: query)
            return snapshot(documents, isFromCache: false)
        } catch let error as FirestoreError where error.code == .unavailable && source == .default {
            guard firestore.cache.results(of: query) != nil else { throw error }
            return try cachedSnapshot(query)
        }
    }

    private func cachedSnapshot(_ query: DocumentModel.Query) throws -> QuerySnapshot {
        guard let documents = firestore.cache.results(of: query) else {
            throw FirestoreError(
                .unavailable,
                "Failed to get documents from cache: this Firestore instance has not run this query since its last "
                    + "write to the collection. Run again without source: .cache to read from the database.")
        }
        return snapshot(documents, isFromCache: true)
    }

    /// The results in the query's order (reversing a `limit(toLast:)` query's reversed run).
    func ordered(_ documents: [Document]) -> [Document] {
        state.limitToLast ? documents.reversed() : documents
    }

    /// A one-time read's snapshot: every document is an addition.
    func snapshot(_ documents: [Document], isFromCache: Bool) -> QuerySnapshot {
        let metadata = SnapshotMetadata(isFromCache: isFromCache)
        let snapshots = ordered(documents).map { QueryDocumentSnapshot($0, firestore: firestore, metadata: metadata) }
        let changes = snapshots.enumerated().map { index, document in
            DocumentChange(type: .added, document: document, oldIndex: -1, newIndex: index)
        }
        return QuerySnapshot(query: self, documents: snapshots, documentChanges: changes, metadata: metadata)
    }
}
