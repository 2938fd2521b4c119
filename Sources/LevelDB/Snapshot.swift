internal import CLevelDB

/// A consistent read-only view of a database at one moment.
///
/// Pass it in `ReadOptions(snapshot:)`. It is released when the last reference goes away; the
/// database cannot close while a snapshot is alive.
public final class Snapshot: @unchecked Sendable {
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
