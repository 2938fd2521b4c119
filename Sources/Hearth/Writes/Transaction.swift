import DocumentModel
import Synchronization

/// The reads and writes of one attempt of `Firestore.runTransaction`.
///
/// Reads lock what they read until the transaction ends (on the embedded backend; the
/// emulators do the same), and must all come before the writes; writes are applied atomically
/// when the body returns, and only if nothing the transaction read has changed since.
public final class Transaction: Sendable {
    private struct State {
        var writes: [Write] = []
        var error: FirestoreError?
    }

    let firestore: Firestore
    let id: TransactionID
    private let state = Mutex(State())

    init(firestore: Firestore, id: TransactionID) {
        self.firestore = firestore
        self.id = id
    }

    /// Reads `document` in the transaction.
    ///
    /// - Throws: `.invalidArgument` after a write ("Firestore transactions require all reads to
    ///   be executed before all writes."), or the read's error.
    public func getDocument(_ document: DocumentReference) async throws -> DocumentSnapshot {
        let name = try document.resolvedName()
        guard state.withLock({ $0.writes.isEmpty }) else {
            throw FirestoreError.invalidArgument("Firestore transactions require all reads to be executed before all writes.")
        }
        let (readTime, documents) = try await firestore.backend.lookup([name], transaction: id, as: firestore.identity)
        firestore.sync.recordRead([name: documents[0]], readTime: readTime)
        return DocumentSnapshot(
            reference: document, document: documents[0], metadata: SnapshotMetadata(hasPendingWrites: false, isFromCache: false))
    }

    /// Replaces `document`'s fields with `data`.
    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference) -> Transaction {
        add { try WriteParser.set(data, at: try document.resolvedName()) }
    }

    /// Writes `data` into `document`, merging with its fields when `merge` is true.
    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference, merge: Bool) -> Transaction {
        add {
            let name = try document.resolvedName()
            return merge ? try WriteParser.merge(data, at: name) : try WriteParser.set(data, at: name)
        }
    }

    /// Writes only the fields `mergeFields` of `data` into `document`.
    @discardableResult
    public func setData(_ data: [String: Any], forDocument document: DocumentReference, mergeFields: [Any])
        -> Transaction
    {
        add { try WriteParser.merge(data, fields: try FieldMask.paths(mergeFields), at: try document.resolvedName()) }
    }

    /// Updates fields of `document`, which must exist at commit.
    @discardableResult
    public func updateData(_ fields: [AnyHashable: Any], forDocument document: DocumentReference) -> Transaction {
        add { try WriteParser.update(fields, at: try document.resolvedName()) }
    }

    /// Deletes `document`.
    @discardableResult
    public func deleteDocument(_ document: DocumentReference) -> Transaction {
        add { .delete(try document.resolvedName()) }
    }

    /// The writes to commit, or the first invalid one's error.
    func pendingWrites() throws -> [Write] {
        try state.withLock { state in
            if let error = state.error { throw error }
            return state.writes
        }
    }

    private func add(_ make: () throws -> Write) -> Transaction {
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
