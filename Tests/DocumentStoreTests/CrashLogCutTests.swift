import DocumentModel
import DocumentStore
import Foundation
import Testing

/// A write-ahead log cut short after a crash: the running store records the logs' synced sizes
/// about once a second (`LogWatermark`), so a cut that reaches back past that record is found
/// at the next open, as one after a clean stop is.
///
/// Part of the serialized "Crash recovery" suite: both tests wait for a child process while
/// holding a thread of Swift's cooperative pool, and together they would hold both of this
/// 2-core machine's, stalling every async test running beside them.
extension CrashRecoveryTests {
    @Test("A log cut back past the last watermark after SIGKILL refuses the open, naming the log")
    func cutPastTheWatermarkIsRefused() throws {
        let writer = try CrashRecoveryTests.crashWriterExecutable()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cut-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The first watermark comes a second after the store opens. A memtable flush after the
        // last one makes the record stale (rightly not checked), so the writer is paced: two
        // milliseconds' pause per 1.5 KiB commit fill LevelDB's 4 MiB write buffer in no less
        // than about 5 s, well after the kill. A run killed before any watermark is tried again.
        for attempt in 1...6 {
            let dataFolder = folder.appendingPathComponent("data-\(attempt)").path
            try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
            let output = try CrashRecoveryTests.runAndKill(
                writer, arguments: [dataFolder, "0", "2000"], afterMilliseconds: 1_500 + 200 * attempt,
                stderrPath: folder.appendingPathComponent("stderr-\(attempt).txt").path)
            #expect(try CrashRecoveryTests.reportedCommits(in: output, run: attempt).count > 0)
            guard let (logName, recorded) = try currentRecord(dataFolder), recorded > 1_000 else { continue }

            let handle = try #require(FileHandle(forWritingAtPath: dataFolder + "/" + logName))
            try handle.truncate(atOffset: UInt64(recorded / 2))
            try handle.close()
            let before = try FileManager.default.contentsOfDirectory(atPath: dataFolder).sorted()
            #expect {
                try DocumentStore(path: dataFolder).close()
            } throws: { error in
                guard let error = error as? FirestoreError else { return false }
                return error.code == .dataLoss && error.message.contains(logName) && error.message.contains("cut short")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dataFolder).sorted() == before, "nothing deleted")
            return
        }
        Issue.record("no run left a current watermark of more than 1,000 bytes: nothing could be checked")
    }

    /// The largest log of the folder's record with its recorded size, when the record is
    /// current: its manifest unchanged since, and that log still there.
    private func currentRecord(_ folder: String) throws -> (String, Int)? {
        guard let record = try? String(contentsOfFile: folder + "/HEARTH-CLEAN-STOP", encoding: .utf8) else { return nil }
        let current = try String(contentsOfFile: folder + "/CURRENT", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var largest: (String, Int)?
        for line in record.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 3, let size = Int(parts[2]) else { continue }
            if parts[0] == "manifest", parts[1] != current || fileSize(folder + "/" + parts[1]) != size { return nil }
            if parts[0] == "log", fileSize(folder + "/" + parts[1]) != nil, size > largest?.1 ?? 0 {
                largest = (parts[1], size)
            }
        }
        return largest
    }

    private func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }
}
