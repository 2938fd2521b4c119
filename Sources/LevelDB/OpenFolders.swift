import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders this process has open, so that a second open of one fails before LevelDB
/// touches its `LOCK` file. LevelDB finds its own process's lock only after opening the file,
/// and then closes it again, which (POSIX advisory locks being per process and file) releases
/// the first open's lock: another process could then open the folder too.
enum OpenFolders {
    private static let paths = Mutex<Set<String>>([])

    /// Claims `path` for one open database, or throws `.databaseInUse`. Returns the key to
    /// release.
    static func claim(_ path: String) throws -> String {
        let key = canonical(path)
        let claimed = paths.withLock { $0.insert(key).inserted }
        guard claimed else {
            throw LevelDBError(
                code: .databaseInUse,
                message: "data folder '\(path)' is in use: it is already open in this process")
        }
        return key
    }

    /// Releases a claim.
    static func release(_ key: String) {
        _ = paths.withLock { $0.remove(key) }
    }

    /// The folder's real path when it exists (symbolic links and `..` resolved), else `path`.
    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
