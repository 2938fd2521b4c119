import DocumentModel
import QueryEngine

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
    /// Whether snapshots that change only metadata are delivered.
    let includeMetadataChanges: Bool

    public func makeAsyncIterator() -> Iterator {
        let firestore = query.firestore
        do {
            let model = try query.state.modelQuery(in: firestore.database)
            return Iterator(
                query: query, includeMetadataChanges: includeMetadataChanges, view: try QueryView(model),
                subscription: firestore.sync.listen(to: .query(model)))
        } catch {
            return Iterator(
                query: query, includeMetadataChanges: includeMetadataChanges, view: nil,
                subscription: firestore.sync.failedSubscription(error))
        }
    }

    /// Produces the snapshots; the listener lives as long as the iterator.
    ///
    /// An iterator belongs to the task that iterates: `for try await` in an actor's method (or
    /// a `@MainActor` function) waits for each snapshot in that isolation.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error

        let query: Query
        let includeMetadataChanges: Bool
        let view: QueryView?
        let subscription: ViewSubscription
        /// The state of the last snapshot delivered.
        var previous: ViewState?

        /// The next snapshot, waited for in `actor`'s isolation; `nil` once the listener ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> QuerySnapshot? {
            while let state = try await subscription.mailbox.next() {
                if let snapshot = snapshot(state) { return snapshot }
            }
            return nil
        }

        /// The next snapshot; `nil` once the listener ended.
        public mutating func next() async throws -> QuerySnapshot? {
            while let state = try await subscription.mailbox.next() {
                if let snapshot = snapshot(state) { return snapshot }
            }
            return nil
        }

        /// The snapshot for `state`, or `nil` when the listener does not deliver it (only its
        /// metadata changed, and the listener did not ask for metadata changes).
        private mutating func snapshot(_ state: ViewState) -> QuerySnapshot? {
            let firestore = query.firestore
            let documents = query.ordered(state.documents)
            let old = previous.map { query.ordered($0.documents) } ?? []
            let metadata = SnapshotMetadata(hasPendingWrites: state.hasPendingWrites, isFromCache: state.isFromCache)
            var snapshots: [DocumentName: QueryDocumentSnapshot] = [:]
            let ordered = documents.map { local in
                let snapshot = QueryDocumentSnapshot(local, firestore: firestore, isFromCache: state.isFromCache)
                snapshots[local.name] = snapshot
                return snapshot
            }
            let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let changes = ListenerChanges.documentChanges(
                from: old, to: documents, view: view, reversed: query.state.limitToLast
            ).map { change in
                DocumentChange(
                    type: change.type,
                    document: snapshots[change.name]
                        ?? QueryDocumentSnapshot(oldByName[change.name]!, firestore: firestore, isFromCache: state.isFromCache),
                    oldIndex: change.oldIndex, newIndex: change.newIndex)
            }
            var metadataChanges: [DocumentChange] = []
            for (index, local) in documents.enumerated() {
                guard let before = oldByName[local.name], before.hasPendingWrites != local.hasPendingWrites,
                    before.document.fields == local.document.fields
                else { continue }
                metadataChanges.append(
                    DocumentChange(type: .modified, document: ordered[index], oldIndex: index, newIndex: index))
            }
            if let previous, changes.isEmpty {
                let previousMetadata = SnapshotMetadata(
                    hasPendingWrites: previous.hasPendingWrites, isFromCache: previous.isFromCache)
                guard includeMetadataChanges, previousMetadata != metadata || !metadataChanges.isEmpty else { return nil }
            }
            previous = state
            return QuerySnapshot(
                query: query, documents: ordered, documentChanges: changes, metadata: metadata,
                metadataChanges: metadataChanges)
        }
    }
}

extension Query {
    /// The query's results as an `AsyncSequence` (see `QuerySnapshotsSequence`).
    public var snapshots: QuerySnapshotsSequence { snapshots(includeMetadataChanges: false) }

    /// The query's results; with `includeMetadataChanges`, also the snapshots in which only
    /// metadata changed (a pending write acknowledged, the server reached or lost).
    public func snapshots(includeMetadataChanges: Bool) -> QuerySnapshotsSequence {
        QuerySnapshotsSequence(query: self, includeMetadataChanges: includeMetadataChanges)
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
        TaskListenerRegistration.consuming(snapshots(includeMetadataChanges: includeMetadataChanges), listener)
    }
}
