import Synchronization

/// The server's open Server-Sent Events streams, so that stopping the server ends them: an
/// event stream never finishes by itself, and a graceful shutdown waits for every response to
/// end.
final class OpenEventStreams: Sendable {
    private struct State {
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextKey = 0
        var closed = false
    }

    private let state = Mutex(State())

    init() {}

    /// Runs `stream` to `writer` in a new task, then `done` (also when the stream never
    /// started because the server is stopping).
    ///
    /// - Returns: the task, to cancel when the client goes away; `nil` once `closeAll()` ran.
    func start(
        _ stream: EventStream, writer: EventStreamWriter, done: @escaping @Sendable () -> Void
    ) -> Task<Void, Never>? {
        state.withLock { state -> Task<Void, Never>? in
            guard !state.closed else {
                done()
                return nil
            }
            state.nextKey += 1
            let key = state.nextKey
            let task = Task { [weak self] in
                await stream.run(writer)
                _ = self?.state.withLock { $0.tasks.removeValue(forKey: key) }
                done()
            }
            state.tasks[key] = task
            return task
        }
    }

    /// Ends every open stream and refuses new ones: the server is stopping. The streams end
    /// soon after (their producers are cancelled); `closeAll()` waits for them.
    func cancelAll() {
        for task in closeAndTakeTasks() { task.cancel() }
    }

    /// Ends every open stream, refuses new ones, and returns once every stream's task has
    /// finished: nothing of theirs reads the store after this (the store may close).
    func closeAll() async {
        for task in closeAndTakeTasks() {
            task.cancel()
            await task.value
        }
    }

    private func closeAndTakeTasks() -> [Task<Void, Never>] {
        state.withLock { state in
            state.closed = true
            return Array(state.tasks.values)
        }
    }

    /// The number of streams open now.
    var count: Int { state.withLock { $0.tasks.count } }
}
