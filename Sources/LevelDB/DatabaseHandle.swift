internal import CLevelDB
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Unsafe code (C interop; Docs/Architecture.md, "Where unsafe code lives"): the C database,
// options, cache, filter policy and the `pthread_rwlock_t` (allocated here, since a Swift
// property's address is not stable) are owned here and destroyed once; the rwlock and
// `openChildren` keep the database open while any operation, iterator or snapshot uses it.

/// Owns the C handles of one open database and guards them against use after close.
///
/// Every operation runs inside `withOpenDatabase`, which holds a shared lock; `close` and
/// `reopen` take the exclusive lock, so they wait for operations in flight. Iterators and
/// snapshots register themselves (`makeChild`) before the shared lock is released, and `close`
/// refuses while any is open: LevelDB requires them to be released before the database.
///
/// Writes run inside `withWritableDatabase`. The first one that fails with an I/O error (a
/// full disk) stops every later write until `reopen`: a failed write can leave part of a
/// record at the end of the write-ahead log, and a record appended after it would turn that
/// part into damage in the middle of the log, which a paranoid open refuses. Reopening starts
/// a new log, dropping the partial record (LevelDB drops a record cut by the end of its log)
/// and clearing LevelDB's sticky background error.
final class DatabaseHandle: @unchecked Sendable {
    // @unchecked Sendable: `database` and `reopenFailure` change only under the exclusive `lock`.
    let path: String
    private var database: OpaquePointer?
    /// Why the database is not open after a failed `reopen`; nil otherwise.
    private var reopenFailure: LevelDBError?
    private let options: OpaquePointer
    private let cache: OpaquePointer?
    private let filterPolicy: OpaquePointer?
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private let openChildren = Atomic<Int>(0)
    /// Set while `reopen` waits for iterators and snapshots to go: new ones wait meanwhile.
    private let draining = Atomic<Bool>(false)
    /// The I/O failure that stopped writes, until `reopen`.
    private let stoppedWrites = Mutex<LevelDBError?>(nil)
    /// This handle's claim on its folder (`OpenFolders`), released at close.
    private let claim = Mutex<String?>(nil)

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
        // If opening throws, `deinit` still runs (every property is initialized) and frees the
        // options and the claim.
        let key = try OpenFolders.claim(path)
        claim.withLock { $0 = key }
        database = try withLevelDBError(path: path) { leveldb_open(options, path, $0) }
    }

    deinit {
        if let database { leveldb_close(database) }
        releaseClaim()
        releaseOptions()
    }

    private func releaseClaim() {
        if let key = claim.withLock({ $0.take() }) { OpenFolders.release(key) }
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
            throw reopenFailure ?? LevelDBError(code: .closed, message: "database '\(path)' is closed")
        }
        return try body(database)
    }

    /// Runs `body`, a write, with the open C database; throws the failure that stopped writes
    /// without running it, and stops writes when it fails with an I/O error.
    func withWritableDatabase<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        if let failure = writeFailure { throw failure }
        return try withOpenDatabase { database in
            do {
                return try body(database)
            } catch let error as LevelDBError where error.code == .ioError {
                stoppedWrites.withLock { $0 = $0 ?? error }
                throw error
            }
        }
    }

    /// The I/O failure that stopped writes, until `reopen`; nil while writes work.
    var writeFailure: LevelDBError? { stoppedWrites.withLock { $0 } }

    /// Creates an iterator or snapshot with the open C database and records it, before the
    /// shared lock is released, as a child that must be released before `close` or `reopen`.
    /// Waits first while a `reopen` drains the children.
    func makeChild<Child>(_ body: (OpaquePointer) throws -> Child) throws -> Child {
        while draining.load(ordering: .acquiring) { usleep(200) }
        return try withOpenDatabase { database in
            let child = try body(database)
            openChildren.add(1, ordering: .relaxed)
            return child
        }
    }

    /// Records the release of an iterator or snapshot, after its C object is destroyed:
    /// `.releasing` pairs with the `.acquiring` loads in `close` and `reopen`, so the destroy
    /// happens before LevelDB closes.
    func releaseChild() { openChildren.subtract(1, ordering: .releasing) }

    /// Closes the database once; later calls do nothing.
    func close() throws {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        guard let open = database else { return }
        let children = openChildren.load(ordering: .acquiring)
        guard children == 0 else {
            throw LevelDBError(
                code: .busy,
                message: "database '\(path)' cannot close while \(children) iterator(s) or snapshot(s) are open")
        }
        leveldb_close(open)
        database = nil
        releaseClaim()
    }

    /// Closes the database and opens it again, once no iterator or snapshot is open (new ones
    /// wait meanwhile), and lets writes resume.
    ///
    /// - Throws: `.busy` when iterators or snapshots stay open for `timeout` (the database
    ///   stays open as it was); LevelDB's error when the open fails (every operation then
    ///   throws it until a later `reopen` succeeds).
    func reopen(waitingUpTo timeout: Duration) throws {
        draining.store(true, ordering: .releasing)
        defer { draining.store(false, ordering: .releasing) }
        let deadline = ContinuousClock.now + timeout
        while true {
            pthread_rwlock_wrlock(lock)
            let children = openChildren.load(ordering: .acquiring)
            if children == 0 {
                defer { pthread_rwlock_unlock(lock) }
                if let open = database { leveldb_close(open) }
                database = nil
                do {
                    database = try withLevelDBError(path: path) { leveldb_open(options, path, $0) }
                } catch let error as LevelDBError {
                    reopenFailure = error
                    throw error
                }
                reopenFailure = nil
                stoppedWrites.withLock { $0 = nil }
                return
            }
            pthread_rwlock_unlock(lock)
            guard ContinuousClock.now < deadline else {
                throw LevelDBError(
                    code: .busy,
                    message: "database '\(path)' cannot reopen while \(children) iterator(s) or snapshot(s) are open")
            }
            usleep(1000)
        }
    }
}
