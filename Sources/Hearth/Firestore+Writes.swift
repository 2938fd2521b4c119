import DocumentModel

extension Firestore {
    /// Commits `writes` atomically as this instance's identity: queued and shown to this
    /// instance's listeners at once, and returned from when the server acknowledges them.
    @discardableResult
    func commit(_ writes: [Write]) async throws -> CommitReport {
        try await sync.write(writes)
    }

    /// Commits a transaction's writes, and takes what they wrote into the cache.
    func commit(_ writes: [Write], transaction: TransactionID) async throws {
        let report = try await backend.commit(writes, transaction: transaction, as: identity)
        sync.recordCommitted(writes, report)
    }
}
