import DocumentModel

/// The parts of Firestore's API that Hearth's server does not serve yet. A request that needs
/// one fails with UNIMPLEMENTED and a message naming the RPC and what it waits for, never with
/// a made-up answer.
enum MissingFeature: String, Sendable {
    case transactions = "transactions (BeginTransaction, Rollback and reads or commits in a transaction)"
    case queries = "the query engine (RunQuery, RunAggregationQuery)"
    case listeners = "snapshot listeners (the Listen stream)"
    case writeStream = "the Write stream of the mobile SDKs"
    case partitionQuery = "PartitionQuery"
    case pipelines = "pipelines (ExecutePipeline)"
    case securityRules = "security rules (loading and coverage)"

    /// The UNIMPLEMENTED error for `operation`, such as `BeginTransaction`.
    func error(_ operation: String) -> FirestoreError {
        FirestoreError(.unimplemented, "Hearth does not implement \(operation) yet: it needs \(rawValue), not built yet.")
    }
}
