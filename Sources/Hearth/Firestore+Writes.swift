import DocumentModel

extension Firestore {
    /// Commits `writes` atomically as this instance's identity, and forgets what they touch
    /// from the cache.
    @discardableResult
    func commit(_ writes: [Write], transaction: TransactionID? = nil) async throws -> CommitReport {
        cache.invalidate(writes.lazy.map(\.name))
        return try await backend.commit(writes, transaction: transaction, as: identity)
    }
}
