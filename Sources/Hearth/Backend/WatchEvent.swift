package import DocumentModel

/// What a backend reports about a watched target.
package enum WatchEvent: Sendable {
    /// The target is consistent on the server at the snapshot's read time.
    case snapshot(WatchSnapshot)
    /// The connection to the server broke; until the next snapshot the target is not current.
    case disconnected
    /// The server refused the target (rules denial, invalid query); no event follows.
    case failed(FirestoreError)

    /// How many events a watch stream holds for a consumer that falls behind: the newest ones
    /// (each snapshot is the target's whole state, so an older one adds nothing), never an
    /// unbounded backlog.
    package static let buffering = AsyncStream<WatchEvent>.Continuation.BufferingPolicy.bufferingNewest(16)
}

/// A watched target at one read time, as the server reported it.
package struct WatchSnapshot: Sendable {
    /// The time the target was consistent at.
    package var readTime: Timestamp
    /// The documents in the target (in no particular order).
    package var documents: [Document]
    /// The token to resume the target from (empty when the server gave none).
    package var resumeToken: [UInt8]
    /// What the server told about documents outside the target since the previous snapshot:
    /// the new content of documents that left it, `nil` for documents deleted.
    package var observed: [DocumentName: Document?]

    package init(
        readTime: Timestamp, documents: [Document], resumeToken: [UInt8] = [], observed: [DocumentName: Document?] = [:]
    ) {
        self.readTime = readTime
        self.documents = documents
        self.resumeToken = resumeToken
        self.observed = observed
    }
}
