import Foundation
import LevelDB
import Synchronization
import Testing

@Suite("LevelDB close racing cursors")
struct CloseRaceTests {
    /// What the reader threads saw, shared between them and the test.
    private final class Observations: Sendable {
        let scans = Mutex(0)
        let failures = Mutex<[String]>([])
        let closedReaders = Mutex(0)
        /// Readers that returned, for whatever reason.
        let finishedReaders = Mutex(0)
        /// Set when the test ends: a reader still scanning stops, so that a failed run leaves no
        /// thread behind.
        let stop = Atomic(false)
        /// Set when the test starts closing: readers then pause longer between scans, so that a
        /// loaded machine, whose slow scans hold cursors most of the time, still leaves close gaps.
        let closing = Atomic(false)

        func fail(_ message: String) { failures.withLock { $0.append(message) } }
    }

    /// The readers are threads of their own, and the test waits without blocking a thread. On
    /// Linux the Swift concurrency pool runs on the dispatch root queue of
    /// `DispatchQueue.global()`, with about as many threads as cores (2 here): readers queued
    /// there waited behind whole suites, and a run whose close never came left them scanning for
    /// good, starving every other test of the process (CI of 2026-12-07).
    @Test("close racing threads that scan with their own cursors never crashes; readers then see .closed")
    func closeWhileScanning() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try Database(path: folder.path)
        for index in 0..<100 { try db.put(Array("key\(index)".utf8), [UInt8(index)]) }
        let readers = 4
        let seen = Observations()
        defer { seen.stop.store(true, ordering: .relaxed) }
        for _ in 0..<readers {
            Thread.detachNewThread { Self.scanUntilClosed(db, seen) }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        let scanning = { seen.scans.withLock { $0 } < 5 * readers && seen.failures.withLock(\.isEmpty) }
        while scanning(), ContinuousClock.now < deadline { try await Task.sleep(for: .microseconds(100)) }
        seen.closing.store(true, ordering: .relaxed)
        var closed = false
        while !closed, ContinuousClock.now < deadline {
            do {
                try db.close()
                closed = true
            } catch let error as LevelDBError where error.code == .busy {
                try await Task.sleep(for: .microseconds(50))
            }
        }
        #expect(closed, "close never found a moment without a live cursor")
        while seen.finishedReaders.withLock({ $0 }) < readers, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(seen.failures.withLock { $0 } == [])
        #expect(seen.closedReaders.withLock { $0 } == readers)
        let after = #expect(throws: LevelDBError.self) { try db.makeCursor() }
        #expect(after?.code == .closed)
        let scan = #expect(throws: LevelDBError.self) { try db.forEachEntry(withPrefix: Array("key".utf8)) { _, _ in } }
        #expect(scan?.code == .closed)
    }

    /// Scans the whole database with a fresh cursor, over and over (pausing between scans so
    /// that close finds moments without a live cursor), until making one throws `.closed` or
    /// the test stops it; anything else unexpected is recorded in `seen`.
    private static func scanUntilClosed(_ db: Database, _ seen: Observations) {
        defer { seen.finishedReaders.withLock { $0 += 1 } }
        while !seen.stop.load(ordering: .relaxed) {
            do {
                let cursor = try db.makeCursor()
                var count = 0
                cursor.seekToFirst()
                while cursor.isValid {
                    count += 1
                    cursor.next()
                }
                try cursor.checkError()
                if count != 100 { seen.fail("a scan saw \(count) entries") }
                seen.scans.withLock { $0 += 1 }
            } catch let error as LevelDBError where error.code == .closed {
                seen.closedReaders.withLock { $0 += 1 }
                return
            } catch {
                seen.fail("\(error)")
                return
            }
            usleep(seen.closing.load(ordering: .relaxed) ? 20_000 : 1000)
        }
    }
}
