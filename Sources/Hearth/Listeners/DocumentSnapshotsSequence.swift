import DocumentModel
import DocumentStore

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
    public struct Iterator: AsyncIteratorProtocol {
        let reference: DocumentReference
        var base: AsyncThrowingStream<ListenResult, any Error>.AsyncIterator

        public mutating func next() async throws -> DocumentSnapshot? {
            guard let result = try await base.next() else { return nil }
            let document = result.documents.first
            let name = try reference.resolvedName()
            reference.firestore.cache.record(document, name: name)
            return DocumentSnapshot(reference: reference, document: document, metadata: SnapshotMetadata(isFromCache: false))
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
    /// ```swift
    /// let registration = ref.addSnapshotListener { snapshot, error in
    ///     guard let snapshot else { return print(error!) }
    ///     print(snapshot.data() ?? [:])
    /// }
    /// ```
    @discardableResult
    public func addSnapshotListener(
        includeMetadataChanges: Bool = false,
        _ listener: @escaping @Sendable (DocumentSnapshot?, (any Error)?) -> Void
    ) -> any ListenerRegistration {
        TaskListenerRegistration.consuming(snapshots, listener)
    }
}
