/// How a database is opened.
///
/// The defaults suit Hearth's document store: create the folder if missing, paranoid checks (a
/// damaged write-ahead log or manifest refuses the open instead of dropping what it cannot read),
/// an 8 MiB block cache, a 10-bit bloom filter and a 4 MiB write buffer.
public struct OpenOptions: Sendable, Equatable {
    /// Create the database if the folder holds none.
    public var createIfMissing = true
    /// Fail if a database already exists in the folder.
    public var errorIfExists = false
    /// Check data aggressively and stop at the first sign of corruption: at open, damage in the
    /// write-ahead log or the manifest fails the open; in compactions, a damaged block stops writes.
    public var paranoidChecks = true
    /// Size of the LRU cache of uncompressed blocks, or `nil` for LevelDB's built-in 8 MiB cache.
    public var blockCacheBytes: Int? = 8 << 20
    /// Bits per key of the bloom filter policy, or `nil` for no filter.
    public var bloomFilterBitsPerKey: Int? = 10
    /// Bytes of the in-memory write buffer before it is written out as a table.
    public var writeBufferBytes = 4 << 20
    /// Files LevelDB may keep open at once.
    public var maxOpenFiles = 1000
    /// Snappy compression of blocks.
    public var compression = true

    public init() {}
}
