import Synchronization

/// Hands a view's states to one consumer, keeping only the latest one it has not taken: a
/// slow consumer gets coalesced states, never a backlog.
final class ViewMailbox: Sendable {
    private struct State {
        var latest: ViewState?
        /// Set once the view ends: `nil` error for a plain end.
        var end: FirestoreError??
        var waiter: CheckedContinuation<ViewState?, any Error>?
        var isCancelled = false
    }

    private let state = Mutex(State())

    /// Replaces the state the consumer has not taken yet, and wakes it.
    func publish(_ view: ViewState) {
        let waiter = state.withLock { state -> CheckedContinuation<ViewState?, any Error>? in
            guard state.end == nil else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.latest = view
            return nil
        }
        waiter?.resume(returning: view)
    }

    /// Ends the view: the consumer gets the states not taken, then `error` or the end.
    func finish(throwing error: FirestoreError? = nil) {
        let waiter = state.withLock { state -> CheckedContinuation<ViewState?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = .some(error)
            defer { state.waiter = nil }
            return state.waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// The next state; `nil` once the view ended. Cancelling the waiting task throws
    /// `CancellationError`.
    func next() async throws -> ViewState? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ViewState?, any Error>) in
                let ready = state.withLock { state -> Result<ViewState?, any Error>? in
                    if state.isCancelled { return .failure(CancellationError()) }
                    if let latest = state.latest {
                        state.latest = nil
                        return .success(latest)
                    }
                    if let end = state.end {
                        if let error = end { return .failure(error) }
                        return .success(nil)
                    }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<ViewState?, any Error>? in
                state.isCancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
