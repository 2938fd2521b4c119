public import DocumentModel
public import QueryEngine

/// The state of a listener's target at one commit version, with what changed since the
/// snapshot before it.
public struct ListenSnapshot: Sendable, Hashable {
    /// The commit version the snapshot reflects: every commit up to it, none after it.
    public var readTime: Timestamp
    /// The token to resume from: a listener started with it receives exactly the changes made
    /// after this snapshot (or a reset, if the token has left the retention window).
    public var resumeToken: Int64 { readTime.microsecondsSinceEpoch }
    /// The documents of the target now, in order (at most one for a document target).
    public var documents: [Document]
    /// What changed since the previous snapshot, removals first, then additions and
    /// modifications in their new order; indexes follow Firestore's `DocumentChange`.
    public var changes: [ListenChange]
    /// Whether this snapshot starts from nothing (the first snapshot, or a reset after a stale
    /// resume token or a consumer that fell too far behind) rather than from the previous one.
    public var isReset: Bool
}
