import DocumentModel
import LevelDB

/// How a `DocumentStore` is opened and behaves.
public struct StoreConfiguration: Sendable {
    /// Where commit times and server timestamps come from.
    public var clock: any WallClock = SystemWallClock()
    /// How long superseded versions stay readable for reads at a past read time.
    /// Firestore keeps one hour.
    public var retentionSeconds: Int64 = 3600
    /// How often the background collector removes expired versions; `nil` for never (call
    /// `DocumentStore.collectGarbage()` yourself).
    public var garbageCollectionIntervalSeconds: Double? = 60
    /// Wait for each commit to reach the disk before acknowledging it. Without it (the default,
    /// as in LevelDB) a commit survives a crash of the process but not of the machine.
    public var syncCommits = false
    /// LevelDB's open options.
    public var levelDB = OpenOptions()

    public init() {}
}
