/// Where a snapshot's data came from.
public struct SnapshotMetadata: Sendable, Hashable {
    /// Whether the snapshot shows writes of this instance that the server has not
    /// acknowledged yet.
    public let hasPendingWrites: Bool
    /// Whether the snapshot comes from the local cache rather than a server that is up to date
    /// with it: a `.cache` read, a read while the server is away, or a listener whose target
    /// is not current on the server (yet, or any more).
    public let isFromCache: Bool

    init(hasPendingWrites: Bool, isFromCache: Bool) {
        self.hasPendingWrites = hasPendingWrites
        self.isFromCache = isFromCache
    }
}

/// Where a read gets its data.
public enum FirestoreSource: Sendable, Hashable {
    /// The server; the local cache when the server cannot be reached.
    case `default`
    /// The server only.
    case server
    /// The local cache only, with pending writes applied; a document the cache does not know
    /// fails with `.unavailable`.
    case cache
}
