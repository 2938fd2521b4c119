internal import CLevelDB

// Unsafe code (C interop; Docs/Architecture.md, "Where unsafe code lives"): C read options
// refer to the snapshot's C pointer without owning it; whoever uses them (a read, a `Cursor`)
// keeps this `ReadOptions`, and so the `Snapshot`, alive for as long as LevelDB reads them.

/// Options for one read: the snapshot to read from and checksum verification.
public struct ReadOptions: Sendable {
    /// Read the database as it was when this snapshot was taken, or the latest state if `nil`.
    public var snapshot: Snapshot?
    /// Verify the checksums of every block read, so that a damaged block is an error
    /// (`LevelDBError.Code.corruption`) rather than wrong data.
    public var verifyChecksums = true
    /// Keep blocks read by this operation in the block cache (turn off for large scans).
    public var fillCache = true

    public init(snapshot: Snapshot? = nil, verifyChecksums: Bool = true, fillCache: Bool = true) {
        self.snapshot = snapshot
        self.verifyChecksums = verifyChecksums
        self.fillCache = fillCache
    }

    /// Creates the C read options, runs `body`, and destroys them.
    func withCOptions<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        let options = makeCOptions()
        defer { leveldb_readoptions_destroy(options) }
        return try body(options)
    }

    /// Creates C read options that the caller must destroy.
    func makeCOptions() -> OpaquePointer {
        let options = leveldb_readoptions_create()!
        leveldb_readoptions_set_verify_checksums(options, verifyChecksums ? 1 : 0)
        leveldb_readoptions_set_fill_cache(options, fillCache ? 1 : 0)
        if let snapshot {
            leveldb_readoptions_set_snapshot(options, snapshot.pointer)
        }
        return options
    }
}
