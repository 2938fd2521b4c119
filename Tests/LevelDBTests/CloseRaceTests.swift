import Dispatch
import Foundation
import LevelDB
import Synchronization
import Testing

@Suite("LevelDB close racing cursors")
struct CloseRaceTests {
    /// What the reader threads saw, shared between them.
    private final class Observations: Sendable {
        let scans = Mutex(0)
        let failures = Mutex<[String]>([])
        let closedReaders = Mutex(0)

        func fail(_ message: String) { failures.withLock { $0.append(message) } }
    }

    @Test("close racing threads that scan with their own cursors never crashes; readers then see .closed")
    func closeWhileScanning() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try Database(path: folder.path)
        for index in 0..<100 { try db.put(Array("key\(index)".utf8), [UInt8(index)]) }
        let readers = 4
        let seen = Observations()
        let done = DispatchGroup()
        for _ in 0..<readers {
            DispatchQueue.global().async(group: done) { Self.scanUntilClosed(db, seen) }
        }
        let deadline = ContinuousClock.now + .seconds(20)
        let scanning = { seen.scans.withLock { $0 } < 5 * readers && seen.failures.withLock(\.isEmpty) }
        while scanning(), ContinuousClock.now < deadline { usleep(100) }
        var closed = false
        while !closed, ContinuousClock.now < deadline {
            do {
                try db.close()
                closed = true
            } catch let error as LevelDBError where error.code == .busy {
                usleep(50)
            }
        }
        #expect(closed, "close never found a moment without a live cursor")
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(seen.failures.withLock { $0 } == [])
        #expect(seen.closedReaders.withLock { $0 } == readers)
        let after = #expect(throws: LevelDBError.self) { try db.makeCursor() }
        #expect(after?.code == .closed)
        let scan = #expect(throws: LevelDBError.self) { try db.forEachEntry(withPrefix: Array("key".utf8)) { _, _ in } }
        #expect(scan?.code == .closed)
    }

    /// Scans the whole database with a fresh cursor, over and over (pausing between scans so
    /// that close finds moments without a live cursor), until making one throws `.closed`;
    /// anything else unexpected is recorded in `seen`.
    private static func scanUntilClosed(_ db: Database, _ seen: Observations) {
        while true {
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
            usleep(1000)
        }
    }
}
