internal import CLevelDB

// Unsafe code (C interop; Docs/Architecture.md, "Where unsafe code lives"): keys and values are
// lent to LevelDB for one call (it copies them into the batch). `count` and `byteCount` are
// `@exclusivity(unchecked)`: a batch is not `Sendable` (one task uses it) and no access to them
// overlaps another (the C calls between do not call back into Swift), so the dynamic
// exclusivity checks can never fire; they cost 371 → 539 instructions per `put` (+45%, callgrind,
// BENCHMARKS.md "Unsafe code in the rules evaluator (#19)").

/// A list of puts and deletes that `Database.write(_:sync:)` applies atomically.
///
/// ```swift
/// let batch = WriteBatch()
/// batch.put(Array("a".utf8), Array("1".utf8))
/// batch.delete(Array("b".utf8))
/// try db.write(batch)
/// ```
///
/// - Important: A batch is not thread-safe (nor is LevelDB's batch under it), so it is not
///   `Sendable`: build it and write it in one task.
public final class WriteBatch {
    let pointer: OpaquePointer
    /// The number of operations added so far.
    @exclusivity(unchecked) public private(set) var count = 0
    /// The bytes of keys and values added so far.
    @exclusivity(unchecked) public private(set) var byteCount = 0

    public init() {
        pointer = leveldb_writebatch_create()
    }

    deinit {
        leveldb_writebatch_destroy(pointer)
    }

    /// Adds a put of `value` under `key`.
    public func put(_ key: [UInt8], _ value: [UInt8]) {
        key.withUnsafeBytes { keyBytes in value.withUnsafeBytes { put(keyBytes, $0) } }
    }

    /// Adds a put of `value` under `key`, both given as raw bytes (copied into the batch).
    public func put(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) {
        leveldb_writebatch_put(
            pointer,
            key.baseAddress?.assumingMemoryBound(to: CChar.self), key.count,
            value.baseAddress?.assumingMemoryBound(to: CChar.self), value.count)
        count += 1
        byteCount += key.count + value.count
    }

    /// Adds a delete of `key`, given as raw bytes.
    public func delete(_ key: UnsafeRawBufferPointer) {
        leveldb_writebatch_delete(pointer, key.baseAddress?.assumingMemoryBound(to: CChar.self), key.count)
        count += 1
        byteCount += key.count
    }

    /// Adds a delete of `key`.
    public func delete(_ key: [UInt8]) {
        key.withUnsafeBytes { delete($0) }
    }

    /// Removes every operation, so the batch can be reused.
    public func clear() {
        leveldb_writebatch_clear(pointer)
        count = 0
        byteCount = 0
    }
}
