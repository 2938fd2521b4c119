import EmulatorServer
import Foundation
import SecurityRules

#if canImport(Darwin)
import Darwin
#else
// `stat` and its fields: on Linux the compiler attributes the C struct to Foundation's
// CoreFoundation module (which includes the same header first), so MemberImportVisibility asks for it.
import CoreFoundation
#endif

/// The security rules file of `hearth start` and `hearth exec`: loaded before the server
/// listens, then watched (its modification time polled every 250 ms) and reloaded into the
/// running server whenever it changes. A file with errors is reported with its `file:line:col`
/// diagnostics; at start it stops Hearth from starting, later the last good rules stay.
struct RulesFileWatcher: Sendable {
    /// The rules file's path as configured (relative to the current directory unless absolute).
    let path: String
    /// Where notices go (standard output for `start`).
    let log: @Sendable (String) -> Void

    /// How often the file's modification time is read.
    static let pollInterval = Duration.milliseconds(250)

    /// The file's rules for the server's start, or `nil` (open rules) when there is no file,
    /// after logging which it is; with the file's stamp, from which `watch` looks for changes.
    ///
    /// - Throws: `CommandFailure` with the diagnostics when the file has errors or cannot be read.
    func initialRules() throws -> (rules: RulesFile?, stamp: FileStamp?) {
        let stamp = FileStamp(path: path)
        guard stamp != nil else {
            log(
                "WARNING: no security rules file at '\(path)': every request is allowed (open rules), as Google's "
                    + "emulator does without --rules. Create the file (or set \"rules\" in emulator.json, or --rules) "
                    + "to enforce rules; Hearth loads it as soon as it appears.")
            return (nil, nil)
        }
        let file: RulesFile
        do {
            file = try RulesFile(contentsOfFile: path)
        } catch {
            throw CommandFailure("cannot read the rules file '\(path)': \(error.localizedDescription)")
        }
        do {
            let warnings = try file.check()
            for warning in warnings { log(warning.rendered) }
        } catch {
            throw CommandFailure("the rules file '\(path)' has errors; Hearth did not start:\n\(error.rendered)")
        }
        log("Security rules from '\(path)' apply to every project")
        return (file, stamp)
    }

    /// Polls the file until cancelled, reloading it into `rules` when its modification time or
    /// size differs from the last seen, starting with `stamp`.
    func watch(_ rules: ProjectRules, from stamp: FileStamp?) async {
        var seen = stamp
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: RulesFileWatcher.pollInterval)
            } catch {
                return
            }
            let current = FileStamp(path: path)
            guard current != seen else { continue }
            seen = current
            reload(into: rules, exists: current != nil)
        }
    }

    private func reload(into rules: ProjectRules, exists: Bool) {
        guard exists else {
            log("The rules file '\(path)' was removed; keeping the last good rules")
            return
        }
        let file: RulesFile
        do {
            file = try RulesFile(contentsOfFile: path)
        } catch {
            log("Cannot read the rules file '\(path)': \(error.localizedDescription); keeping the last good rules")
            return
        }
        do {
            let warnings = try rules.setServerRules(file)
            for warning in warnings { log(warning.rendered) }
            log("Security rules reloaded from '\(path)'")
        } catch {
            log("The rules file '\(path)' has errors; keeping the last good rules:\n\(error.rendered)")
        }
    }
}

/// A file's modification time, size and inode, or `nil` when it does not exist. Read with one
/// `stat` call (FileManager's attributes also look up the owner's name in `/etc/passwd`, four
/// times a second).
struct FileStamp: Equatable {
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var size: Int64
    var inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        modifiedSeconds = Int(modified.tv_sec)
        modifiedNanoseconds = Int(modified.tv_nsec)
        size = Int64(status.st_size)
        inode = UInt64(status.st_ino)
    }
}
