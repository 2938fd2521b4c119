import DocumentModel
import DocumentStore

extension Firestore {
    /// Commits `writes` atomically as this instance's identity, and forgets what they touch
    /// from the cache.
    func commit(_ writes: [Write], transaction: TransactionID? = nil) async throws {
        cache.invalidate(writes.map(\.name))
        try await backend.commit(writes, transaction: transaction, as: identity)
    }
}
