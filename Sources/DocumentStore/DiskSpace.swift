import Foundation

/// The file system a data folder lives on: its free space and where it is mounted, so that a
/// full disk can be named and its recovery noticed.
struct DiskSpace {
    /// The folder.
    let path: String

    /// Bytes an unprivileged process may still write there, or nil if unknown.
    var availableBytes: Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// The mount point of the file system holding the folder: the highest ancestor on the
    /// same device.
    var mountPoint: String {
        var current = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath + "/" + path)
        guard let device = DiskSpace.device(of: current) else { return path }
        while current != "/" {
            let parent = String(current[..<(current.lastIndex(of: "/") ?? current.startIndex)])
            let candidate = parent.isEmpty ? "/" : parent
            guard DiskSpace.device(of: candidate) == device else { break }
            current = candidate
        }
        return current
    }

    /// Whether LevelDB's I/O error `message` means the disk is full.
    static func meansFull(_ message: String) -> Bool {
        message.contains("No space left on device") || message.contains("Disk quota exceeded")
    }

    private static func device(of path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt64(info.st_dev)
    }
}
