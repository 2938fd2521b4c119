internal import CLevelDB

// Unsafe code (C interop; Docs/Architecture.md, "Where unsafe code lives"): the iterator and
// its read options are owned here and destroyed in `deinit`; the handle keeps the database open
// while the cursor lives (`makeChild`/`releaseChild`) and `snapshot` keeps the snapshot the
// iterator reads. `withKey`/`withValue` lend LevelDB's buffer for the current entry, valid
// until the iterator moves: only for the closure, and a cursor is not `Sendable`, so no other
// task moves it meanwhile. Keys given to `seek` are lent for the call only (LevelDB copies them).

/// A position in the database's key order, moved with `seek`, `next` and `previous`.
///
/// A cursor reads a consistent view: the state of the database when it was created, or its
/// `ReadOptions.snapshot`. The database cannot close while a cursor is alive.
///
/// ```swift
/// let cursor = try db.makeCursor()
/// cursor.seek(to: Array("users/".utf8))
/// while cursor.isValid, cursor.key.starts(with: Array("users/".utf8)) { cursor.next() }
/// ```
///
/// - Important: A cursor is not thread-safe (nor is LevelDB's iterator under it), so it is not
///   `Sendable`: use it from the task that made it. Make one cursor per task instead.
public final class Cursor {
    private let handle: DatabaseHandle
    private let iterator: OpaquePointer
    private let readOptions: OpaquePointer
    /// Kept alive for as long as the iterator reads through it.
    private let snapshot: Snapshot?

    init(handle: DatabaseHandle, options: ReadOptions) throws {
        self.handle = handle
        snapshot = options.snapshot
        let readOptions = options.makeCOptions()
        do {
            iterator = try handle.makeChild { leveldb_create_iterator($0, readOptions) }
        } catch {
            leveldb_readoptions_destroy(readOptions)
            throw error
        }
        self.readOptions = readOptions
    }

    deinit {
        leveldb_iter_destroy(iterator)
        leveldb_readoptions_destroy(readOptions)
        handle.releaseChild()
    }

    /// Whether the cursor is on an entry.
    public var isValid: Bool { leveldb_iter_valid(iterator) != 0 }

    /// Moves to the first entry whose key is at or after `key`.
    public func seek(to key: [UInt8]) {
        key.withUnsafeBytes { bytes in
            leveldb_iter_seek(iterator, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
    }

    /// Moves to the first entry of the database.
    public func seekToFirst() { leveldb_iter_seek_to_first(iterator) }

    /// Moves to the last entry of the database.
    public func seekToLast() { leveldb_iter_seek_to_last(iterator) }

    /// Moves to the next entry. Requires `isValid`.
    public func next() { leveldb_iter_next(iterator) }

    /// Moves to the previous entry. Requires `isValid`.
    public func previous() { leveldb_iter_prev(iterator) }

    /// The current key, copied. Requires `isValid`.
    public var key: [UInt8] { withKey { Array($0) } }

    /// The current value, copied. Requires `isValid`.
    public var value: [UInt8] { withValue { Array($0) } }

    /// Calls `body` with the current key's bytes without copying them. Requires `isValid`;
    /// `body` must not move the cursor (the bytes are LevelDB's, valid until it moves).
    public func withKey<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var length = 0
        let pointer = leveldb_iter_key(iterator, &length)
        return try body(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    /// Calls `body` with the current value's bytes without copying them. Requires `isValid`;
    /// `body` must not move the cursor (the bytes are LevelDB's, valid until it moves).
    public func withValue<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var length = 0
        let pointer = leveldb_iter_value(iterator, &length)
        return try body(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    /// Whether the current key starts with `prefix`. Requires `isValid`.
    public func keyHasPrefix(_ prefix: [UInt8]) -> Bool {
        withKey { key in
            prefix.withUnsafeBytes { prefixBytes in
                key.count >= prefixBytes.count
                    && compareBytes(UnsafeRawBufferPointer(rebasing: key.prefix(prefixBytes.count)), prefixBytes) == 0
            }
        }
    }

    /// Compares the current key with `other` bytewise: negative, zero or positive. Requires `isValid`.
    public func compareKey(to other: [UInt8]) -> Int {
        withKey { key in other.withUnsafeBytes { compareBytes(key, $0) } }
    }

    /// The error LevelDB recorded while iterating, if any (for example, a corrupt block).
    public func checkError() throws {
        try withLevelDBError(path: handle.path) { leveldb_iter_get_error(iterator, $0) }
    }
}
