package import DocumentModel

/// One commit, as the change feed publishes it: after it is durable, once, in commit order.
package struct CommitEvent: Sendable {
    /// The commit's version, also its resume token.
    package let version: Int64
    /// The documents the commit changed, with their state before and after it.
    package let changes: [DocumentChangeRecord]

    /// The commit time.
    package var commitTime: Timestamp { Timestamp(microsecondsSinceEpoch: version) }
}

/// A document's state before and after one commit (`nil`: missing).
package struct DocumentChangeRecord: Sendable {
    package let name: DocumentName
    package let before: Document?
    package let after: Document?
}
