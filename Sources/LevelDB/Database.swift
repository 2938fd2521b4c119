internal import CLevelDB

// Unsafe code (C interop; Docs/Architecture.md, "Where unsafe code lives"): keys and values
// are lent to LevelDB for one call (`withUnsafeBytes`; LevelDB copies what it keeps); the value
// `leveldb_get` mallocs is copied and freed once. Every call runs inside the handle's
// `withOpenDatabase`/`withWritableDatabase`, so the database cannot close under it.

/// An open LevelDB database in a folder.
///
/// `Database` is safe to share between threads: LevelDB serializes writers itself and readers
/// never block. Keys and values are byte arrays and are compared bytewise.
///
/// ```swift
/// let db = try Database(path: "/tmp/example")
/// try db.put(Array("users/alice".utf8), Array("{}".utf8))
/// let value = try db.get(Array("users/alice".utf8))
/// try db.forEachEntry(withPrefix: Array("users/".utf8)) { key, _ in print(key) }
/// try db.close()
/// ```
public final class Database: Sendable {
    let handle: DatabaseHandle

    /// The folder the database lives in.
    public var path: String { handle.path }

    /// Opens (and by default creates) the database in `path`.
    ///
    /// - Throws: `LevelDBError` with code `.databaseInUse` when another process holds the folder,
    ///   or LevelDB's own error for anything else.
    public init(path: String, options: OpenOptions = OpenOptions()) throws {
        handle = try DatabaseHandle(path: path, options: options)
    }

    /// Closes the database. Operations after this throw `.closed`; closing twice does nothing.
    ///
    /// - Throws: `.busy` while an iterator or snapshot of this database is still alive.
    public func close() throws {
        try handle.close()
    }

    /// Reads the value stored under `key`, or `nil` if there is none.
    public func get(_ key: [UInt8], options: ReadOptions = ReadOptions()) throws -> [UInt8]? {
        try handle.withOpenDatabase { database in
            try options.withCOptions { readOptions in
                var length = 0
                let value = try key.withUnsafeBufferPointer { keyBytes in
                    try withLevelDBError(path: path) { error in
                        keyBytes.withMemoryRebound(to: CChar.self) { chars in
                            leveldb_get(database, readOptions, chars.baseAddress, chars.count, &length, error)
                        }
                    }
                }
                guard let value else { return nil }
                defer { leveldb_free(value) }
                return [UInt8](levelDBBytes: value, length: length)
            }
        }
    }

    /// Stores `value` under `key`, replacing any value already there.
    public func put(_ key: [UInt8], _ value: [UInt8], sync: Bool = false) throws {
        try withWriteOptions(sync: sync) { database, writeOptions in
            try key.withUnsafeBytes { keyBytes in
                try value.withUnsafeBytes { valueBytes in
                    try withLevelDBError(path: path) {
                        leveldb_put(
                            database, writeOptions,
                            keyBytes.baseAddress?.assumingMemoryBound(to: CChar.self), keyBytes.count,
                            valueBytes.baseAddress?.assumingMemoryBound(to: CChar.self), valueBytes.count, $0)
                    }
                }
            }
        }
    }

    /// Removes `key`; removing a missing key is not an error.
    public func delete(_ key: [UInt8], sync: Bool = false) throws {
        try withWriteOptions(sync: sync) { database, writeOptions in
            try key.withUnsafeBytes { keyBytes in
                try withLevelDBError(path: path) {
                    leveldb_delete(
                        database, writeOptions,
                        keyBytes.baseAddress?.assumingMemoryBound(to: CChar.self), keyBytes.count, $0)
                }
            }
        }
    }

    /// Applies every operation of `batch` atomically: after a crash either all of it is there or none.
    ///
    /// - Parameter sync: wait until the operating system has flushed the log to disk, so the
    ///   write survives a machine crash too (not only a process crash).
    public func write(_ batch: WriteBatch, sync: Bool = false) throws {
        try withWriteOptions(sync: sync) { database, writeOptions in
            try withLevelDBError(path: path) { leveldb_write(database, writeOptions, batch.pointer, $0) }
        }
    }

    /// The I/O failure (such as a full disk) that stopped writes: after a write fails with an
    /// I/O error, every later write throws it without writing, until `reopen()`. Reads go on.
    public var writeFailure: LevelDBError? { handle.writeFailure }

    /// Closes the database and opens it again, as a new `Database` would, without a new
    /// object: writes stopped by `writeFailure` resume, and LevelDB's sticky background error
    /// (a failed compaction) is cleared. Waits up to `timeout` for iterators and snapshots to be
    /// released; new ones wait for the reopen.
    ///
    /// - Throws: `.busy` if iterators or snapshots stay open (nothing changes then); LevelDB's
    ///   error if the open fails, such as a disk still full: every operation then throws it
    ///   until a later `reopen()` succeeds.
    public func reopen(waitingUpTo timeout: Duration = .seconds(10)) throws {
        try handle.reopen(waitingUpTo: timeout)
    }

    private func withWriteOptions<R>(sync: Bool, _ body: (OpaquePointer, OpaquePointer) throws -> R) throws -> R {
        try handle.withWritableDatabase { database in
            let writeOptions = leveldb_writeoptions_create()!
            defer { leveldb_writeoptions_destroy(writeOptions) }
            leveldb_writeoptions_set_sync(writeOptions, sync ? 1 : 0)
            return try body(database, writeOptions)
        }
    }

    /// A consistent, read-only view of the database as it is now.
    public func snapshot() throws -> Snapshot {
        try Snapshot(handle: handle)
    }

    /// A cursor positioned nowhere; call one of its `seek` methods first.
    public func makeCursor(options: ReadOptions = ReadOptions()) throws -> Cursor {
        try Cursor(handle: handle, options: options)
    }

    /// Compacts the whole key range, dropping deleted entries from disk.
    public func compact() throws {
        try handle.withOpenDatabase { database in
            leveldb_compact_range(database, nil, 0, nil, 0)
        }
    }
}
