package import DocumentStore
package import Foundation

/// Where throwaway stores go (`Firestore.embedded()`'s, HearthTesting's environments): a new
/// folder on a RAM-backed file system when the machine has one with room, Linux's `/dev/shm`,
/// else in the temporary directory.
///
/// A throwaway store is deleted when it closes, so nothing in it needs to reach a disk. On a
/// disk its set-up still waits for the fsyncs LevelDB makes when it creates a database (its
/// manifest and `CURRENT`) and the store's own (the format version written at creation), about
/// 1–1.5 ms each on the development machine: most of a fresh HearthTesting environment's set-up
/// (BENCHMARKS.md, "A fresh HearthTesting environment in RAM"). On tmpfs an fsync returns at
/// once, as Google's emulator keeps its data in memory.
///
/// `TMPDIR`, when set, is the user's choice and is kept (macOS always sets it, so there nothing
/// changes). A RAM-backed file system with less than `leastFreeBytes` free is passed over:
/// Docker gives a container a 64 MB `/dev/shm` by default.
package enum TemporaryStoreFolder {
    /// The RAM-backed file system tried first.
    package static let ramDisk = "/dev/shm"

    /// The free space the RAM-backed file system needs to be used.
    package static let leastFreeBytes: Int64 = 1 << 30

    /// A new folder's location (not created), named `prefix` and a UUID.
    ///
    /// - Parameters:
    ///   - environment: the process's environment, read for `TMPDIR`.
    ///   - ramDisk: the RAM-backed file system to try (a parameter for tests).
    package static func make(
        prefix: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        ramDisk: String = TemporaryStoreFolder.ramDisk
    ) -> URL {
        let name = "\(prefix)-\(UUID().uuidString)"
        if environment["TMPDIR"]?.isEmpty == false || !hasRoom(ramDisk) {
            return FileManager.default.temporaryDirectory.appendingPathComponent(name)
        }
        return URL(fileURLWithPath: ramDisk, isDirectory: true).appendingPathComponent(name)
    }

    /// A new throwaway store (no garbage collector: it lives as long as a test) in a new folder,
    /// and the folder, for its owner to delete after closing the store.
    package static func openStore(prefix: String) throws -> (store: DocumentStore, folder: URL) {
        let folder = make(prefix: prefix)
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        return (try DocumentStore(path: folder.path, configuration: configuration), folder)
    }

    /// Whether `path` is a writable directory with at least `leastFreeBytes` free.
    private static func hasRoom(_ path: String) -> Bool {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
            files.isWritableFile(atPath: path),
            let free = (try? files.attributesOfFileSystem(forPath: path))?[.systemFreeSize] as? NSNumber
        else { return false }
        return free.int64Value >= leastFreeBytes
    }
}
