public import DocumentModel

/// One commit, as the change feed publishes it: after it is durable, once, in commit order.
public struct CommitEvent: Sendable {
    /// The commit's version, also its resume token.
    public let version: Int64
    /// The documents the commit changed, with their state before and after it.
    public let changes: [DocumentChangeRecord]

    /// The commit time.
    public var commitTime: Timestamp { Timestamp(microsecondsSinceEpoch: version) }
}

/// A document's state before and after one commit (`nil`: missing).
public struct DocumentChangeRecord: Sendable {
    public let name: DocumentName
    public let before: Document?
    public let after: Document?
}
