import DocumentModel
import DocumentStore
import Foundation
import Synchronization
import Testing

/// The store's blocking work runs on its own threads, never on Swift's cooperative threads.
@Suite struct StoreThreadsTests {
    /// What finished, in order.
    private final class FinishOrder: Sendable {
        private let recorded = Mutex<[String]>([])

        var names: [String] { recorded.withLock { $0 } }

        func append(_ name: String) {
            recorded.withLock { $0.append(name) }
        }
    }

    private static func store(clock: ThreadRecordingClock) throws -> (DocumentStore, String) {
        let folder = NSTemporaryDirectory() + "hearth-threads-" + UUID().uuidString
        var configuration = StoreConfiguration()
        configuration.clock = clock
        configuration.garbageCollectionIntervalSeconds = nil
        return (try DocumentStore(path: folder, configuration: configuration), folder)
    }

    @Test func readingAndWritingRunOnTheStoreThreads() async throws {
        let (store, folder) = try Self.store(clock: ThreadRecordingClock())
        defer { try? store.close(); try? FileManager.default.removeItem(atPath: folder) }
        #expect(try await store.reading { currentPool() } == "reader")
        #expect(try await store.writing { currentPool() } == "writer")
    }

    @Test func asyncCommitsRunOnTheWriterThread() async throws {
        let clock = ThreadRecordingClock()
        let (store, folder) = try Self.store(clock: clock)
        defer { try? store.close(); try? FileManager.default.removeItem(atPath: folder) }
        let alice = try DocumentName(try DatabaseID(project: "demo-threads"), "users/alice")
        _ = clock.takePools()
        try await store.commitWaitingForLocks([.set(alice, fields: ["n": 1])])
        let plain = clock.takePools()
        let transaction = try store.beginTransaction(.readWrite())
        _ = try await store.document(alice, transaction: transaction)
        #expect(clock.takePools().contains("reader"), "the transactional read runs on a reader thread")
        try await store.commit([.set(alice, fields: ["n": 2])], transaction: transaction)
        let transactional = clock.takePools()
        #expect(!plain.isEmpty && !transactional.isEmpty)
        #expect((plain + transactional).allSatisfy { $0 == "writer" }, "clock read on \(plain), \(transactional)")
    }

    /// Commits that block their thread (here: on a slow clock, under the commit lock, as on a
    /// slow fsync) queue on the writer thread; a task waiting on a timer meanwhile still runs at
    /// once. On the cooperative threads, the commits would hold every one of them, and the timer
    /// task would run only after some of the commits.
    @Test func blockedCommitsLeaveTheCooperativeThreadsFree() async throws {
        let clock = ThreadRecordingClock()
        let (store, folder) = try Self.store(clock: clock)
        defer { try? store.close(); try? FileManager.default.removeItem(atPath: folder) }
        let database = try DatabaseID(project: "demo-threads")
        let finished = FinishOrder()
        clock.block(milliseconds: 100)
        let commits = ProcessInfo.processInfo.activeProcessorCount + 2
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<commits {
                group.addTask {
                    let name = try DocumentName(database, "slow/d\(index)")
                    try await store.commitWaitingForLocks([.set(name, fields: ["n": .integer(Int64(index))])])
                    finished.append("commit")
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(20))
                finished.append("timer")
            }
            try await group.waitForAll()
        }
        clock.block(milliseconds: 0)
        let order = finished.names
        #expect(order.count == commits + 1)
        #expect(order.first == "timer", "finished in the order \(order)")
    }
}
