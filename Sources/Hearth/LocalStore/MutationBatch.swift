package import DocumentModel

/// A group of local writes that reach the server together (one `commit`), queued in the local
/// store until the server acknowledges or rejects them.
package struct MutationBatch: Sendable, Equatable {
    /// Increasing, never reused within a cache (not even after every batch was removed).
    package var batchID: Int64
    /// When the app made the writes, for the local view's server-timestamp estimates.
    package var localWriteTime: Timestamp
    /// The writes, in order.
    package var writes: [Write]

    package init(batchID: Int64, localWriteTime: Timestamp, writes: [Write]) {
        self.batchID = batchID
        self.localWriteTime = localWriteTime
        self.writes = writes
    }
}
