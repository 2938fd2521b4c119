import DocumentModel

/// The snapshots of one document as an `AsyncSequence`: its current state first, then one
/// snapshot per change. Ending the iteration (breaking out of the loop, or cancelling the
/// task) removes the listener.
///
/// ```swift
/// for try await snapshot in ref.snapshots {
///     print(snapshot.exists, snapshot.data() ?? [:])
/// }
/// ```
public struct DocumentSnapshotsSequence: AsyncSequence, Sendable {
    public typealias Element = DocumentSnapshot
    public typealias Failure = any Error

    let reference: DocumentReference
    /// Whether snapshots that change only metadata are delivered.
    let includeMetadataChanges: Bool

    public func makeAsyncIterator() -> Iterator {
        let firestore = reference.firestore
        let subscription: ViewSubscription
        do {
            subscription = firestore.sync.listen(to: .document(try reference.resolvedName()))
        } catch {
            subscription = firestore.sync.failedSubscription(error)
        }
        return Iterator(reference: reference, includeMetadataChanges: includeMetadataChanges, subscription: subscription)
    }

    /// Produces the snapshots; the listener lives as long as the iterator.
    ///
    /// An iterator belongs to the task that iterates: `for try await` in an actor's method (or
    /// a `@MainActor` function) waits for each snapshot in that isolation.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error

        let reference: DocumentReference
        let includeMetadataChanges: Bool
        let subscription: ViewSubscription
        /// The state of the last snapshot delivered.
        var previous: ViewState?

        /// The next snapshot, waited for in `actor`'s isolation; `nil` once the listener ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> DocumentSnapshot? {
            while let state = try await subscription.mailbox.next() {
                if let snapshot = snapshot(state) { return snapshot }
            }
            return nil
        }

        /// The next snapshot; `nil` once the listener ended.
        public mutating func next() async throws -> DocumentSnapshot? {
            while let state = try await subscription.mailbox.next() {
                if let snapshot = snapshot(state) { return snapshot }
            }
            return nil
        }

        /// The snapshot for `state`, or `nil` when only its metadata changed and the listener did
        /// not ask for metadata changes.
        private mutating func snapshot(_ state: ViewState) -> DocumentSnapshot? {
            let local = state.documents.first
            let metadata = SnapshotMetadata(hasPendingWrites: state.hasPendingWrites, isFromCache: state.isFromCache)
            if let previous {
                let before = previous.documents.first
                let dataChanged = before?.document.fields != local?.document.fields || (before == nil) != (local == nil)
                let previousMetadata = SnapshotMetadata(
                    hasPendingWrites: previous.hasPendingWrites, isFromCache: previous.isFromCache)
                if !dataChanged && !(includeMetadataChanges && previousMetadata != metadata) { return nil }
            }
            previous = state
            return DocumentSnapshot(
                reference: reference, document: local?.document, metadata: metadata,
                pendingServerTimestamps: local?.pendingServerTimestamps ?? [:])
        }
    }
}

extension DocumentReference {
    /// The document's snapshots as an `AsyncSequence` (see `DocumentSnapshotsSequence`).
    public var snapshots: DocumentSnapshotsSequence { snapshots(includeMetadataChanges: false) }

    /// The document's snapshots; with `includeMetadataChanges`, also the snapshots in which
    /// only metadata changed (a pending write acknowledged, the server reached or lost).
    public func snapshots(includeMetadataChanges: Bool) -> DocumentSnapshotsSequence {
        DocumentSnapshotsSequence(reference: self, includeMetadataChanges: includeMetadataChanges)
    }

    /// Calls `listener` with the document's current state, then after every change, until
    /// the registration is removed. An error (such as `.permissionDenied`) is delivered once,
    /// and ends the listener.
    ///
    /// The listener is called in its isolation, one call at a time, in the order of the
    /// changes. Like a `Task`'s closure, it inherits the caller's isolation: written in
    /// `@MainActor` code (or marked `@MainActor`) it runs on the main actor, as the Firebase
    /// SDKs call listeners on the main queue, so it can update a main-actor model directly; in
    /// an actor's method, when it uses `self`, it runs on the actor; otherwise it runs on the
    /// global executor.
    ///
    /// ```swift
    /// let registration = ref.addSnapshotListener { snapshot, error in
    ///     guard let snapshot else { return print(error!) }
    ///     print(snapshot.data() ?? [:])
    /// }
    /// ```
    @discardableResult
    public func addSnapshotListener(
        includeMetadataChanges: Bool = false,
        @_inheritActorContext _ listener: @escaping @isolated(any) @Sendable (DocumentSnapshot?, (any Error)?) -> Void
    ) -> any ListenerRegistration {
        TaskListenerRegistration.consuming(snapshots(includeMetadataChanges: includeMetadataChanges), listener)
    }
}
