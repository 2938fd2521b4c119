import DocumentModel
import QueryEngine
import Synchronization

/// One registered listener: its target, the result it last delivered, and the commits
/// published since, waiting for its consumer.
///
/// **Buffering policy.** Publishing a commit to a listener only appends it to the listener's
/// queue (the writer never waits for a consumer). The consumer takes the whole queue at once
/// and receives one snapshot reflecting all of it: a slow consumer sees fewer, larger
/// snapshots, never a part of a commit. If more than `maxQueuedCommits` commits wait, the queue
/// is dropped and the next snapshot is computed afresh from the store (still a diff against the
/// last delivered result), so memory stays bounded whatever the consumer does.
final class Listener: Sendable {
    /// The most commits kept waiting for a consumer before they are replaced by a fresh read.
    static let maxQueuedCommits = 1024

    private struct State {
        var queued: [CommitEvent] = []
        var overflowed = false
        var waiting: CheckedContinuation<Bool, Never>?
        var finished = false
        /// Called instead of waking a waiting task, for a consumer without one (`ListenerStream.onReady`).
        var wake: (@Sendable () -> Void)?
        /// Whether `wake` was called and the consumer has not taken the queue since.
        var woken = false

        /// The hook to call for new work, unless it was called already and the consumer has
        /// not taken the queue since.
        mutating func takeWake() -> (@Sendable () -> Void)? {
            guard let wake, !woken else { return nil }
            woken = true
            return wake
        }
    }

    /// What `takeQueuedNow()` found.
    enum Queued {
        /// Commits (and whether some were dropped before them).
        case commits([CommitEvent], overflowed: Bool)
        /// Nothing since the last take.
        case nothing
        /// The listener ended.
        case finished
    }

    let id: UInt64
    let target: ListenTarget
    /// For query targets, the prepared query (scope, order) used to route and diff.
    let prepared: PreparedQuery?
    private let state = Mutex(State())

    init(id: UInt64, target: ListenTarget, prepared: PreparedQuery?) {
        self.id = id
        self.target = target
        self.prepared = prepared
    }

    /// Whether a change to `name` can affect the target (a cheap routing test).
    func isAffected(by name: DocumentName) -> Bool {
        switch target {
        case .document(let watched): watched == name
        case .query: prepared?.scope.contains(name.path) ?? false
        }
    }

    /// Queues a commit for the consumer and wakes it if it waits. Never blocks.
    func enqueue(_ event: CommitEvent) {
        let (waiter, wake) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, (@Sendable () -> Void)?) in
            guard !state.finished else { return (nil, nil) }
            if state.queued.count >= Listener.maxQueuedCommits {
                state.queued.removeAll()
                state.overflowed = true
            } else if !state.overflowed {
                state.queued.append(event)
            }
            defer { state.waiting = nil }
            return (state.waiting, state.takeWake())
        }
        waiter?.resume(returning: true)
        wake?()
    }

    /// Calls `wake` from now on when commits are queued or the listener ends (once until the
    /// consumer takes the queue), and once now.
    func onReady(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard !state.finished else { return }
            state.wake = wake
            state.woken = true
        }
        // Now: the first snapshot is due (or the end, if the listener ended already).
        wake()
    }

    /// Takes the queue without waiting.
    func takeQueuedNow() -> Queued {
        state.withLock { state in
            state.woken = false
            if state.finished { return .finished }
            guard !state.queued.isEmpty || state.overflowed else { return .nothing }
            defer {
                state.queued = []
                state.overflowed = false
            }
            return .commits(state.queued, overflowed: state.overflowed)
        }
    }

    /// Waits until a commit is queued (or the listener is finished), then takes the queue.
    ///
    /// - Returns: the queued commits and whether some were dropped, or `nil` once finished.
    func takeQueued() async -> (events: [CommitEvent], overflowed: Bool)? {
        while true {
            let taken: (events: [CommitEvent], overflowed: Bool)?? = state.withLock { state in
                if state.finished { return .some(nil) }
                guard !state.queued.isEmpty || state.overflowed else { return nil }
                defer {
                    state.queued = []
                    state.overflowed = false
                }
                return (state.queued, state.overflowed)
            }
            if let taken { return taken }
            let alive = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.finished || !state.queued.isEmpty || state.overflowed { return true }
                    state.waiting = continuation
                    return false
                }
                if ready { continuation.resume(returning: true) }
            }
            _ = alive
        }
    }

    /// Ends the listener: a waiting consumer wakes and sees the end.
    func finish() {
        let (waiter, wake) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, (@Sendable () -> Void)?) in
            state.finished = true
            state.queued = []
            // The consumer is told of the end once; the hook is released with everything else.
            defer {
                state.waiting = nil
                state.wake = nil
            }
            return (state.waiting, state.takeWake())
        }
        waiter?.resume(returning: false)
        wake?()
    }
}
