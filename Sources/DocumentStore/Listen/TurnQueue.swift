import Synchronization

/// Lets tasks run a section one at a time, in the order they arrive: a lock a task can hold
/// across suspension points, which `Mutex` cannot be.
final class TurnQueue: Sendable {
    private struct State {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Runs `body` once every task that asked before has finished its turn.
    func withTurn<R>(_ body: () async throws -> R) async rethrows -> R {
        await take()
        defer { pass() }
        return try await body()
    }

    private func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                if state.taken {
                    state.waiting.append(continuation)
                    return false
                }
                state.taken = true
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the turn to the task that has waited longest, or frees it.
    private func pass() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.taken = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
