internal import CLevelDB

/// A list of puts and deletes that `Database.write(_:sync:)` applies atomically.
///
/// ```swift
/// let batch = WriteBatch()
/// batch.put(Array("a".utf8), Array("1".utf8))
/// batch.delete(Array("b".utf8))
/// try db.write(batch)
/// ```
///
/// - Important: A batch is not thread-safe; build it on one thread, then write it.
public final class WriteBatch: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The number of operations added so far.
    public private(set) var count = 0
    /// The bytes of keys and values added so far.
    public private(set) var byteCount = 0

    public init() {
        pointer = leveldb_writebatch_create()
    }

    deinit {
        leveldb_writebatch_destroy(pointer)
    }

    /// Adds a put of `value` under `key`.
    public func put(_ key: [UInt8], _ value: [UInt8]) {
        key.withUnsafeBytes { keyBytes in
            value.withUnsafeBytes { valueBytes in
                leveldb_writebatch_put(
                    pointer,
                    keyBytes.baseAddress?.assumingMemoryBound(to: CChar.self), keyBytes.count,
                    valueBytes.baseAddress?.assumingMemoryBound(to: CChar.self), valueBytes.count)
            }
        }
        count += 1
        byteCount += key.count + value.count
    }

    /// Adds a delete of `key`.
    public func delete(_ key: [UInt8]) {
        key.withUnsafeBytes { keyBytes in
            leveldb_writebatch_delete(pointer, keyBytes.baseAddress?.assumingMemoryBound(to: CChar.self), keyBytes.count)
        }
        count += 1
        byteCount += key.count
    }

    /// Removes every operation, so the batch can be reused.
    public func clear() {
        leveldb_writebatch_clear(pointer)
        count = 0
        byteCount = 0
    }
}
