import DocumentModel
import Synchronization

/// Writes to several documents committed atomically: all of them or none.
///
/// ```swift
/// let batch = db.batch()
/// batch.setData(["name": "Alice"], forDocument: users.document("alice"))
/// batch.updateData(["count": FieldValue.increment(Int64(1))], forDocument: stats)
/// batch.deleteDocument(users.document("bob"))
/// try await batch.commit()
/// ```
///
/// Building methods never throw; the first invalid write is reported by `commit()`, which
/// then writes nothing.
public final class WriteBatch: Sendable {
    private struct State {
        var writes: [Write] = []
        var error: FirestoreError?
        var committed = false
    }

    let firestore: Firestore
    private let state = Mutex(State())

    init(firestore: Firestore) {
        self.firestore = firestore
    }

    /// Replaces `document`'s fields with `data`.
    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference) -> WriteBatch {
        add { try WriteParser.set(data, at: try document.resolvedName()) }
    }

    /// Writes `data` into `document`, merging with its fields when `merge` is true.
    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference, merge: Bool) -> WriteBatch {
        add {
            let name = try document.resolvedName()
            return merge ? try WriteParser.merge(data, at: name) : try WriteParser.set(data, at: name)
        }
    }

    /// Writes only the fields `mergeFields` of `data` into `document`.
    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference, mergeFields: [Any])
        -> WriteBatch
    {
        add { try WriteParser.merge(data, fields: try FieldMask.paths(mergeFields), at: try document.resolvedName()) }
    }

    /// Updates fields of `document`, which must exist when the batch commits.
    @discardableResult
    public func updateData(_ fields: [AnyHashable: Any], forDocument document: DocumentReference) -> WriteBatch {
        add { try WriteParser.update(fields, at: try document.resolvedName()) }
    }

    /// Deletes `document`.
    @discardableResult
    public func deleteDocument(_ document: DocumentReference) -> WriteBatch {
        add { .delete(try document.resolvedName()) }
    }

    /// Commits every write atomically.
    ///
    /// - Throws: the first invalid write's error, or the commit's (`.notFound` for an update
    ///   of a missing document, `.permissionDenied`); nothing is written then.
    ///   `.failedPrecondition` if the batch was already committed.
    public func commit() async throws {
        let writes = try state.withLock { state in
            guard !state.committed else {
                throw FirestoreError(.failedPrecondition, "A write batch cannot be used after commit() was called.")
            }
            state.committed = true
            if let error = state.error { throw error }
            return state.writes
        }
        try await firestore.commit(writes)
    }

    private func add(_ make: () throws -> Write) -> WriteBatch {
        do {
            let write = try make()
            state.withLock { $0.writes.append(write) }
        } catch {
            state.withLock { state in
                if state.error == nil { state.error = .wrapping(error) }
            }
        }
        return self
    }
}
