import Foundation
import Synchronization

/// Runs actions at deadlines, on one dedicated thread shared by every store of the process: the
/// transactions' lock-wait timeouts and the back-offs between a transaction's attempts.
///
/// A task sleeping per wait (`Task { try await Task.sleep(until:) ... }`) did the same job, but a
/// busy server makes hundreds of lock waits a second, and on Swift 6.3 on Linux the sleeps a
/// server makes were found to keep their wake-up jobs for good (heaptrack, in the 60-minute soak:
/// BENCHMARKS.md, "Soak"; the ones found were grpc-swift's call deadlines, see `StreamDeadline`).
/// Here a wait costs one heap entry, freed when its deadline passes, and no task or sleep.
///
/// Actions run on the timer's thread, in deadline order, one at a time: they must be short (the
/// transactions' take a lock and resume a continuation).
final class DeadlineTimer: @unchecked Sendable {
    /// The process's timer; its thread starts on first use and lives as long as the process.
    static let shared = DeadlineTimer()

    private struct Entry {
        let deadline: ContinuousClock.Instant
        /// Breaks ties between equal deadlines, so they run in the order they were scheduled.
        let sequence: UInt64
        let action: @Sendable () -> Void

        func precedes(_ other: Entry) -> Bool {
            (deadline, sequence) < (other.deadline, other.sequence)
        }
    }

    // @unchecked Sendable: `heap` and `sequence` are touched only with `condition` locked.
    private let condition = NSCondition()
    /// A binary min-heap on (deadline, sequence).
    private var heap: [Entry] = []
    private var sequence: UInt64 = 0

    private init() {
        Thread { [self] in run() }.start()
    }

    /// Runs `action` on the timer's thread once `deadline` has passed.
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) {
        condition.lock()
        sequence += 1
        heap.append(Entry(deadline: deadline, sequence: sequence, action: action))
        siftUp(from: heap.count - 1)
        // The thread sleeps until the earliest deadline: wake it when that changed.
        if heap[0].sequence == sequence { condition.signal() }
        condition.unlock()
    }

    /// Suspends the calling task until `deadline`, or throws `CancellationError` as soon as the
    /// task is cancelled, as `Task.sleep(until:)` does.
    func sleep(until deadline: ContinuousClock.Instant) async throws {
        let wake = OneShotContinuation()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                wake.install(continuation)
                schedule(at: deadline) { wake.resume(with: .success(())) }
            }
        } onCancel: {
            wake.resume(with: .failure(CancellationError()))
        }
    }

    /// The thread's loop: wait for the earliest deadline, take every entry that is due, run them.
    private func run() {
        let clock = ContinuousClock()
        while true {
            condition.lock()
            var due: [Entry] = []
            while due.isEmpty {
                guard let first = heap.first else {
                    condition.wait()
                    continue
                }
                let remaining = first.deadline - clock.now
                guard remaining <= .zero else {
                    let (seconds, attoseconds) = remaining.components
                    _ = condition.wait(
                        until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18))
                    continue
                }
                due.append(popFirst())
                while let next = heap.first, next.deadline <= clock.now { due.append(popFirst()) }
            }
            condition.unlock()
            for entry in due { entry.action() }
        }
    }

    // MARK: - The heap (called with `condition` locked)

    private func popFirst() -> Entry {
        let first = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(from: 0)
        }
        return first
    }

    private func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let smaller = right < heap.count && heap[right].precedes(heap[left]) ? right : left
            guard heap[smaller].precedes(heap[parent]) else { return }
            heap.swapAt(parent, smaller)
            parent = smaller
        }
    }
}

/// A continuation resumed at most once, by whichever comes first: the timer or a cancellation
/// (which can also come before the continuation is installed).
private final class OneShotContinuation: Sendable {
    private enum State {
        case waiting
        case installed(CheckedContinuation<Void, any Error>)
        case resumedEarly(Result<Void, any Error>)
        case done
    }

    private let state = Mutex(State.waiting)

    func install(_ continuation: CheckedContinuation<Void, any Error>) {
        let early: Result<Void, any Error>? = state.withLock { state in
            guard case .resumedEarly(let result) = state else {
                state = .installed(continuation)
                return nil
            }
            state = .done
            return result
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<Void, any Error>) {
        let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .resumedEarly(result)
                return nil
            case .installed(let continuation):
                state = .done
                return continuation
            case .resumedEarly, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
