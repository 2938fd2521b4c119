import DocumentModel
public import LevelDB

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
    /// How often, at most, the running store records its write-ahead logs' sizes (each log
    /// synced to disk first) while commits go on; `nil` (the default) records them only at a
    /// clean stop. With a record, a log cut short after a crash is refused at the next open
    /// (DATA_LOSS naming it) when the cut reaches back past the last record, as one after a
    /// clean stop always is (see `CleanStopRecord`). The server (`hearth start`) records every
    /// second; test fixtures and embedded stores, opened and closed by the hundred, do not pay
    /// for the syncs.
    public var logWatermarkInterval: Duration? = nil
    /// The longest a transaction waits for a document another transaction has locked before
    /// it is aborted (and retried by its client).
    public var transactionLockWaitSeconds: Double = 1
    /// A transaction unused for this long expires (Firestore: 60 seconds).
    public var transactionIdleSeconds: Int64 = 60
    /// A transaction older than this expires (Firestore: 270 seconds).
    public var transactionMaximumSeconds: Int64 = 270
    /// Whether queries and aggregations in read-write transactions lock their ranges (see
    /// `RangeLock`). Switch it off only to show that a test catches the phantoms that follow.
    public var locksQueryRanges = true
    /// LevelDB's open options.
    public var levelDB = OpenOptions()

    public init() {}
}
