// CrashWriter: the child process of the crash-recovery test (Tests/DocumentStoreTests/CrashRecoveryTests.swift).
//
// Usage: CrashWriter <data-folder> <start-index> [<pause-microseconds>]
//
// Opens a DocumentStore in <data-folder> with the default configuration (default durability:
// no sync on commit) and commits forever, starting at <start-index>, pausing <pause-microseconds>
// (default 0) after each commit: a paced writer fills LevelDB's write buffer slowly enough that
// no memtable flush comes between the log watermark and the kill. Commit i is one atomic
// commit of four writes:
//
//   create crash/<i>-a, crash/<i>-b, crash/<i>-c   fields {index: i, part: "a"|"b"|"c", padding: <bytes>}
//   set    crash/counter                            fields {n: i}
//
// It prints `ready` once the store is open, then `committed <i>` after each commit returns, each
// line written with one `write(2)` straight to the standard output (no buffering), so every
// line the parent reads is a commit that was acknowledged. The parent kills it with SIGKILL.
// Any error is printed to standard error and ends the process with status 1.

import DocumentModel
import DocumentStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `line` and a newline to file descriptor 1 in one `write` call, retrying on short writes.
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in
            write(1, buffer.baseAddress! + offset, buffer.count - offset)
        }
        if written < 0 {
            if errno == EINTR { continue }
            exit(2)
        }
        offset += written
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CrashWriter: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard (3...4).contains(arguments.count), let start = Int64(arguments[2]), start >= 0,
      let pause = arguments.count == 4 ? UInt32(arguments[3]) : 0 else {
    fail("usage: CrashWriter <data-folder> <start-index> [<pause-microseconds>]")
}
let folder = arguments[1]

// About 1.5 KiB per commit, so a few thousand commits fill LevelDB's 4 MiB write buffer and
// kills also land during memtable flushes and compactions, not only during log appends.
let padding = Value.string(String(repeating: "x", count: 500))

do {
    var configuration = StoreConfiguration()
    configuration.garbageCollectionIntervalSeconds = nil
    configuration.logWatermarkInterval = .seconds(1)  // as the server's store
    let store = try DocumentStore(path: folder, configuration: configuration)
    let database = try DatabaseID(project: "crash-test")
    let counter = try DocumentName(database, "crash/counter")
    emit("ready")
    var index = start
    while true {
        var writes: [Write] = []
        for part in ["a", "b", "c"] {
            let name = try DocumentName(database, "crash/\(index)-\(part)")
            writes.append(.create(name, fields: ["index": .integer(index), "part": .string(part), "padding": padding]))
        }
        writes.append(.set(counter, fields: ["n": .integer(index)]))
        try store.commit(writes)
        emit("committed \(index)")
        if pause > 0 { usleep(pause) }
        index += 1
    }
} catch {
    fail("\(error)")
}
