package import DocumentModel

/// Everything one `LocalStore.apply(_:)` changes, atomically: remote entries written, target
/// records set or removed, mutation batches queued and removed.
package struct LocalStoreChange: Sendable {
    /// Remote entries to store, replacing what the cache holds for those documents.
    package var entries: [DocumentName: RemoteEntry] = [:]
    /// Target records to store by key; a `nil` value removes the record.
    package var targets: [String: TargetRecord?] = [:]
    /// Mutation batches to queue; their IDs must be above every batch ID the cache has seen.
    package var addedBatches: [MutationBatch] = []
    /// Mutation batches to drop (acknowledged or rejected); an unknown ID is ignored.
    package var removedBatchIDs: [Int64] = []

    package init(
        entries: [DocumentName: RemoteEntry] = [:], targets: [String: TargetRecord?] = [:],
        addedBatches: [MutationBatch] = [], removedBatchIDs: [Int64] = []
    ) {
        self.entries = entries
        self.targets = targets
        self.addedBatches = addedBatches
        self.removedBatchIDs = removedBatchIDs
    }

    /// The last batch ID once the change's batches are added after `lastBatchID`.
    ///
    /// - Throws: `.invalidArgument` for a batch ID not above the one before it (IDs are never
    ///   reused), before anything is written.
    package func lastBatchID(after lastBatchID: Int64) throws -> Int64 {
        var last = lastBatchID
        for batch in addedBatches {
            guard batch.batchID > last else {
                throw FirestoreError(
                    .invalidArgument, "Mutation batch \(batch.batchID) is not above the last batch ID \(last) of the cache")
            }
            last = batch.batchID
        }
        return last
    }
}
