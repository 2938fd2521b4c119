import DocumentModel

/// A query's results as an `AsyncSequence`: the current results first, then one snapshot per
/// change, each with its `documentChanges`. Ending the iteration removes the listener.
///
/// ```swift
/// for try await snapshot in db.collection("rooms").whereField("open", isEqualTo: true).snapshots {
///     for change in snapshot.documentChanges { print(change.type, change.document.documentID) }
/// }
/// ```
public struct QuerySnapshotsSequence: AsyncSequence, Sendable {
    public typealias Element = QuerySnapshot
    public typealias Failure = any Error

    let query: Query

    public func makeAsyncIterator() -> Iterator {
        let firestore = query.firestore
        let stream: AsyncThrowingStream<ListenResult, any Error>
        var modelQuery: DocumentModel.Query?
        do {
            let built = try query.state.modelQuery(in: firestore.database)
            modelQuery = built
            stream = firestore.backend.listen(to: .query(built), as: firestore.identity)
        } catch {
            stream = AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return Iterator(query: query, modelQuery: modelQuery, base: stream.makeAsyncIterator())
    }

    /// Produces the snapshots; the listener lives as long as the iterator.
    ///
    /// An iterator belongs to the task that iterates: `for try await` in an actor's method (or
    /// a `@MainActor` function) waits for each snapshot in that isolation, through
    /// `next(isolation:)`, without leaving it.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error

        let query: Query
        let modelQuery: DocumentModel.Query?
        var base: AsyncThrowingStream<ListenResult, any Error>.AsyncIterator
        /// The documents of the last snapshot delivered.
        var previous: [Document] = []

        /// The next snapshot, waited for in `actor`'s isolation; `nil` once the listener ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> QuerySnapshot? {
            guard let result = try await base.next(isolation: actor) else { return nil }
            return snapshot(result)
        }

        /// The next snapshot; `nil` once the listener ended.
        public mutating func next() async throws -> QuerySnapshot? {
            guard let result = try await base.next() else { return nil }
            return snapshot(result)
        }

        private mutating func snapshot(_ result: ListenResult) -> QuerySnapshot {
            let firestore = query.firestore
            if let modelQuery { firestore.cache.record(result.documents, for: modelQuery) }
            let documents = query.ordered(result.documents)
            let metadata = SnapshotMetadata(isFromCache: false)
            var snapshots: [DocumentName: QueryDocumentSnapshot] = [:]
            let ordered = documents.map { document in
                let snapshot = QueryDocumentSnapshot(document, firestore: firestore, metadata: metadata)
                snapshots[document.name] = snapshot
                return snapshot
            }
            let orders = query.state.effectiveOrders()
            let changes = ResultDiff.changes(from: previous, to: documents) {
                ImpliedOrders.precedes($0, $1, orders: orders)
            }.map { change in
                DocumentChange(
                    type: change.type,
                    document: snapshots[change.document.name]
                        ?? QueryDocumentSnapshot(change.document, firestore: firestore, metadata: metadata),
                    oldIndex: change.oldIndex, newIndex: change.newIndex)
            }
            previous = documents
            return QuerySnapshot(query: query, documents: ordered, documentChanges: changes, metadata: metadata)
        }
    }
}

extension Query {
    /// The query's results as an `AsyncSequence` (see `QuerySnapshotsSequence`).
    public var snapshots: QuerySnapshotsSequence { QuerySnapshotsSequence(query: self) }

    /// The query's results. Hearth never delivers metadata-only changes, so
    /// `includeMetadataChanges` changes nothing.
    public func snapshots(includeMetadataChanges: Bool) -> QuerySnapshotsSequence {
        QuerySnapshotsSequence(query: self)
    }

    /// Calls `listener` with the query's results, then after every change to them, until the
    /// registration is removed. An error is delivered once, and ends the listener.
    ///
    /// The listener is called in its isolation, one call at a time, in the order of the
    /// changes; like a `Task`'s closure it inherits the caller's isolation (see
    /// `DocumentReference.addSnapshotListener(includeMetadataChanges:_:)`).
    ///
    /// ```swift
    /// @MainActor func watchRooms() -> any ListenerRegistration {
    ///     db.collection("rooms").addSnapshotListener { snapshot, _ in
    ///         self.rooms = snapshot?.documents.map(\.documentID) ?? []   // on the main actor
    ///     }
    /// }
    /// ```
    @discardableResult
    public func addSnapshotListener(
        includeMetadataChanges: Bool = false,
        @_inheritActorContext _ listener: @escaping @isolated(any) @Sendable (QuerySnapshot?, (any Error)?) -> Void
    ) -> any ListenerRegistration {
        TaskListenerRegistration.consuming(snapshots, listener)
    }
}
