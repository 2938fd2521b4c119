public import DocumentModel

/// What a commit did.
public struct CommitResult: Sendable, Hashable {
    /// The time of the commit; every server timestamp in it has this value.
    public var commitTime: Timestamp
    /// One result per write, in the order of the writes.
    public var writeResults: [WriteResult]
}

/// What one write of a commit did.
public struct WriteResult: Sendable, Hashable {
    /// The document's update time after the write; `nil` after a delete. A write that left the
    /// document unchanged reports the document's previous update time.
    public var updateTime: Timestamp?
    /// One value per transform, in order: the new field value, or null for array transforms.
    public var transformResults: [Value]
}
