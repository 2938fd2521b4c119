import Synchronization

/// A queue that several tasks feed and one consumer drains, a batch at a time: what a
/// bidirectional stream's session waits on (client requests and listener snapshots alike).
///
/// `takeAll()` returns everything queued at once, so that the consumer can answer a whole
/// batch (say, one commit seen by several targets) before it marks a consistent point.
final class SessionInbox<Event: Sendable>: Sendable {
    private struct State {
        var events: [Event] = []
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Queues `event` and wakes the consumer. Never blocks.
    func post(_ event: Event) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.events.append(event)
            defer { state.waiting = nil }
            return state.waiting
        }
        waiter?.resume()
    }

    /// Waits until something is queued, then takes all of it. Returns an empty batch only
    /// when the consuming task is cancelled.
    func takeAll() async -> [Event] {
        while !Task.isCancelled {
            // The queue's buffer goes with the batch: an idle stream keeps none.
            let taken = state.withLock { state -> [Event] in
                defer { state.events = [] }
                return state.events
            }
            if !taken.isEmpty { return taken }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.events.isEmpty || Task.isCancelled { return true }
                        state.waiting = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    defer { state.waiting = nil }
                    return state.waiting
                }
                waiter?.resume()
            }
        }
        return []
    }
}
