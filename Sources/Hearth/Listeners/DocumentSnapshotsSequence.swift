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

    public func makeAsyncIterator() -> Iterator {
        let firestore = reference.firestore
        let stream: AsyncThrowingStream<ListenResult, any Error>
        do {
            stream = firestore.backend.listen(to: .document(try reference.resolvedName()), as: firestore.identity)
        } catch {
            stream = AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return Iterator(reference: reference, base: stream.makeAsyncIterator())
    }

    /// Produces the snapshots; the listener lives as long as the iterator.
    ///
    /// An iterator belongs to the task that iterates: `for try await` in an actor's method (or
    /// a `@MainActor` function) waits for each snapshot in that isolation, through
    /// `next(isolation:)`, without leaving it.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error

        let reference: DocumentReference
        var base: AsyncThrowingStream<ListenResult, any Error>.AsyncIterator

        /// The next snapshot, waited for in `actor`'s isolation; `nil` once the listener ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> DocumentSnapshot? {
            guard let result = try await base.next(isolation: actor) else { return nil }
            return try snapshot(result)
        }

        /// The next snapshot; `nil` once the listener ended.
        public mutating func next() async throws -> DocumentSnapshot? {
            guard let result = try await base.next() else { return nil }
            return try snapshot(result)
        }

        private func snapshot(_ result: ListenResult) throws -> DocumentSnapshot {
            let document = result.documents.first
            let name = try reference.resolvedName()
            reference.firestore.cache.record(document, name: name)
            return DocumentSnapshot(
                reference: reference, document: document, metadata: SnapshotMetadata(isFromCache: false))
        }
    }
}

extension DocumentReference {
    /// The document's snapshots as an `AsyncSequence` (see `DocumentSnapshotsSequence`).
    public var snapshots: DocumentSnapshotsSequence { DocumentSnapshotsSequence(reference: self) }

    /// The document's snapshots. Hearth never delivers metadata-only changes, so
    /// `includeMetadataChanges` changes nothing.
    public func snapshots(includeMetadataChanges: Bool) -> DocumentSnapshotsSequence {
        DocumentSnapshotsSequence(reference: self)
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
        TaskListenerRegistration.consuming(snapshots, listener)
    }
}
