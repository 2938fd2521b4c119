internal import CLevelDB

// Unsafe code (C interop; Docs/Architecture.md, "Where unsafe code lives"): the C snapshot is
// registered with the handle before its lock is released and released before the handle lets
// the database close.

/// A consistent read-only view of a database at one moment.
///
/// Pass it in `ReadOptions(snapshot:)`. It is released when the last reference goes away; the
/// database cannot close while a snapshot is alive. A snapshot can be shared between threads.
public final class Snapshot: @unchecked Sendable {
    // @unchecked Sendable: immutable after init; LevelDB snapshots are read-only, safe for concurrent reads.
    private let handle: DatabaseHandle
    let pointer: OpaquePointer

    init(handle: DatabaseHandle) throws {
        self.handle = handle
        pointer = try handle.makeChild { leveldb_create_snapshot($0) }
    }

    deinit {
        try? handle.withOpenDatabase { leveldb_release_snapshot($0, pointer) }
        handle.releaseChild()
    }
}
