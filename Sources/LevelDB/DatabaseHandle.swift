internal import CLevelDB
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns the C handles of one open database and guards them against use after close.
///
/// Every operation runs inside `withOpenDatabase`, which holds a shared lock; `close` takes the
/// exclusive lock, so it waits for operations in flight and later operations see `.closed`.
/// Iterators and snapshots register themselves, and `close` refuses while any is open: LevelDB
/// requires them to be released before the database.
final class DatabaseHandle: @unchecked Sendable {
    let path: String
    private var database: OpaquePointer?
    private let options: OpaquePointer
    private let cache: OpaquePointer?
    private let filterPolicy: OpaquePointer?
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private let openChildren = Atomic<Int>(0)

    init(path: String, options openOptions: OpenOptions) throws {
        self.path = path
        options = leveldb_options_create()
        leveldb_options_set_create_if_missing(options, openOptions.createIfMissing ? 1 : 0)
        leveldb_options_set_error_if_exists(options, openOptions.errorIfExists ? 1 : 0)
        leveldb_options_set_paranoid_checks(options, openOptions.paranoidChecks ? 1 : 0)
        leveldb_options_set_write_buffer_size(options, openOptions.writeBufferBytes)
        leveldb_options_set_max_open_files(options, Int32(openOptions.maxOpenFiles))
        leveldb_options_set_compression(
            options, Int32(openOptions.compression ? leveldb_snappy_compression : leveldb_no_compression))
        if let bytes = openOptions.blockCacheBytes {
            cache = leveldb_cache_create_lru(bytes)
            leveldb_options_set_cache(options, cache)
        } else {
            cache = nil
        }
        if let bits = openOptions.bloomFilterBitsPerKey {
            filterPolicy = leveldb_filterpolicy_create_bloom(Int32(bits))
            leveldb_options_set_filter_policy(options, filterPolicy)
        } else {
            filterPolicy = nil
        }
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        // If opening throws, `deinit` still runs (every property is initialized) and frees the options.
        database = try withLevelDBError(path: path) { leveldb_open(options, path, $0) }
    }

    deinit {
        if let database { leveldb_close(database) }
        releaseOptions()
    }

    private func releaseOptions() {
        leveldb_options_destroy(options)
        if let cache { leveldb_cache_destroy(cache) }
        if let filterPolicy { leveldb_filterpolicy_destroy(filterPolicy) }
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with the open C database, or throws `.closed`.
    func withOpenDatabase<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        guard let database else {
            throw LevelDBError(code: .closed, message: "database '\(path)' is closed")
        }
        return try body(database)
    }

    /// Records an iterator or snapshot that must be released before `close`.
    func retainChild() { openChildren.add(1, ordering: .relaxed) }

    /// Records the release of an iterator or snapshot.
    func releaseChild() { openChildren.subtract(1, ordering: .relaxed) }

    /// Closes the database once; later calls do nothing.
    func close() throws {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        guard let open = database else { return }
        let children = openChildren.load(ordering: .relaxed)
        guard children == 0 else {
            throw LevelDBError(
                code: .busy,
                message: "database '\(path)' cannot close while \(children) iterator(s) or snapshot(s) are open")
        }
        leveldb_close(open)
        database = nil
    }
}
