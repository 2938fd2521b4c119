import DocumentModel

/// The parts of Firestore's API that Hearth's server does not serve yet. A request that needs
/// one fails with UNIMPLEMENTED and a message naming the RPC and what it waits for, never with
/// a made-up answer.
enum MissingFeature: String, Sendable {
    case listeners = "the Listen stream over REST (it is served over gRPC)"
    case writeStream = "the Write stream over REST (it is served over gRPC)"
    case partitionQuery = "PartitionQuery"
    case pipelines = "pipelines (ExecutePipeline)"

    /// The UNIMPLEMENTED error for `operation`, such as `BeginTransaction`.
    func error(_ operation: String) -> FirestoreError {
        FirestoreError(.unimplemented, "Hearth does not implement \(operation) yet: it needs \(rawValue), not built yet.")
    }
}
