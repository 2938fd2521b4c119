import DocumentModel

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
}
