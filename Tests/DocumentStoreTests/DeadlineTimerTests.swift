@testable import DocumentStore
import Foundation
import Synchronization
import Testing

/// The one thread that runs the transactions' lock-wait timeouts and back-offs.
@Suite struct DeadlineTimerTests {
    /// What ran, in order.
    private final class Recorder: Sendable {
        private let recorded = Mutex<[Int]>([])

        var values: [Int] { recorded.withLock { $0 } }

        func append(_ value: Int) {
            recorded.withLock { $0.append(value) }
        }
    }

    @Test("actions run in deadline order, whatever order they were scheduled in, and never early")
    func deadlineOrder() async throws {
        let recorder = Recorder()
        let start = ContinuousClock.now
        let ranAt = Mutex<[Int: ContinuousClock.Instant]>([:])
        let offsets = [5, 1, 4, 2, 3, 1]
        for (index, offset) in offsets.enumerated() {
            let deadline = start + .milliseconds(40 * offset)
            DeadlineTimer.shared.schedule(at: deadline) {
                ranAt.withLock { $0[index] = .now }
                recorder.append(index)
            }
        }
        try await Task.sleep(for: .milliseconds(40 * 5 + 500))
        // Equal deadlines (indexes 1 and 5) run in the order they were scheduled.
        #expect(recorder.values == [1, 5, 3, 4, 2, 0])
        for (index, offset) in offsets.enumerated() {
            let ran = try #require(ranAt.withLock { $0[index] })
            #expect(ran >= start + .milliseconds(40 * offset), "action \(index) ran before its deadline")
        }
    }

    @Test("an earlier deadline scheduled while the thread waits for a later one runs on time")
    func earlierDeadlineWakesTheThread() async throws {
        let recorder = Recorder()
        let start = ContinuousClock.now
        // An hour: far beyond any stall of a loaded machine (a sanitizer run once stalled this
        // test's process for 80 s, and a 30-second deadline then passed too).
        DeadlineTimer.shared.schedule(at: start + .seconds(3600)) { recorder.append(3600) }
        try await Task.sleep(for: .milliseconds(50))
        DeadlineTimer.shared.schedule(at: start + .milliseconds(100)) { recorder.append(1) }
        try await Task.sleep(for: .seconds(2))
        #expect(recorder.values == [1], "the 100 ms action did not run while the thread waited for an hour")
    }

    @Test("a sleep lasts until its deadline")
    func sleepLastsUntilTheDeadline() async throws {
        let deadline = ContinuousClock.now + .milliseconds(150)
        try await DeadlineTimer.shared.sleep(until: deadline)
        #expect(ContinuousClock.now >= deadline)
    }

    @Test("a cancelled sleep throws CancellationError at once, before or while it waits")
    func cancelledSleepThrows() async throws {
        let start = ContinuousClock.now
        let sleeping = Task { try await DeadlineTimer.shared.sleep(until: .now + .seconds(3600)) }
        try await Task.sleep(for: .milliseconds(50))
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await DeadlineTimer.shared.sleep(until: .now + .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
        // Deadlines an hour away: a loaded machine's stalls (80 s seen) stay far below.
        #expect(ContinuousClock.now - start < .seconds(1800), "a cancelled sleep waited for its deadline")
    }
}
