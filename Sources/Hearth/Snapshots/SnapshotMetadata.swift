/// Where a snapshot's data came from.
public struct SnapshotMetadata: Sendable, Hashable {
    /// Whether the snapshot holds writes not yet committed. Hearth sends every write before
    /// answering, so this is always `false`.
    public let hasPendingWrites: Bool
    /// Whether the snapshot was answered from what this instance had already seen
    /// (`source: .cache`) rather than read from the database.
    public let isFromCache: Bool

    init(isFromCache: Bool) {
        hasPendingWrites = false
        self.isFromCache = isFromCache
    }
}

/// Where a read gets its data.
public enum FirestoreSource: Sendable, Hashable {
    /// The database; if it is unavailable, what this instance has already seen.
    case `default`
    /// The database only.
    case server
    /// Only what this instance has already seen; fails with `.unavailable` if it has not seen it.
    case cache
}
