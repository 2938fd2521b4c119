import DocumentStore
import Foundation
import Synchronization

/// The console's memory of the server's last requests: a ring of the last `capacity` (10,000 by
/// default) `LoggedRequest`s under one lock, numbered in order, with subscribers that are told
/// when requests arrive.
///
/// Appending is a lock, a slot write and, per subscriber, a non-blocking signal. A subscriber is
/// never sent entries: it is woken (signals coalesce, at most one pending) and reads what is new
/// with `requests(after:limit:)`, so a slow subscriber neither holds up requests nor grows any
/// buffer; one that falls more than `capacity` requests behind skips the ones it missed.
///
/// ```swift
/// let log = RequestLog(capacity: 100)
/// log.append(entry, decisions: [])
/// for await _ in log.subscribe() { print(log.requests(after: seen, limit: 500)) }
/// ```
final class RequestLog: Sendable {
    /// The number of requests the server's log keeps.
    static let defaultCapacity = 10_000

    private struct State {
        /// The slot of request `id` is `(id - 1) % capacity`.
        var ring: [LoggedRequest?]
        var lastID: Int64 = 0
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextSubscriber = 0
    }

    /// The most requests kept.
    let capacity: Int
    private let state: Mutex<State>

    /// An empty log that keeps the last `capacity` requests.
    init(capacity: Int = RequestLog.defaultCapacity) {
        precondition(capacity > 0, "A request log keeps at least one request")
        self.capacity = capacity
        state = Mutex(State(ring: Array(repeating: nil, count: capacity)))
    }

    /// Records a finished request (now, by the wall clock), forgetting the oldest one when full,
    /// and wakes the subscribers.
    @discardableResult
    func append(_ entry: RequestLogEntry, decisions: [RecordedRulesDecision]) -> Int64 {
        let time = Date()
        return state.withLock { state in
            state.lastID += 1
            state.ring[slot(of: state.lastID)] = LoggedRequest(
                id: state.lastID, time: time, entry: entry, decisions: decisions)
            for subscriber in state.subscribers.values { subscriber.yield() }
            return state.lastID
        }
    }

    /// The last `limit` requests kept, oldest first.
    func last(_ limit: Int) -> [LoggedRequest] {
        state.withLock { state in
            let first = max(1, state.lastID - Int64(min(limit, capacity)) + 1)
            return collect(from: first, count: max(0, Int(state.lastID - first + 1)), in: state)
        }
    }

    /// The requests kept with ids above `id`, oldest first, at most `limit` of them.
    func requests(after id: Int64, limit: Int) -> [LoggedRequest] {
        state.withLock { state in
            let first = max(id + 1, state.lastID - Int64(capacity) + 1, 1)
            return collect(from: first, count: max(0, min(limit, Int(state.lastID - first + 1))), in: state)
        }
    }

    /// The request numbered `id`, if it is still kept.
    func request(id: Int64) -> LoggedRequest? {
        guard id > 0 else { return nil }
        return state.withLock { state in
            guard let kept = state.ring[slot(of: id)], kept.id == id else { return nil }
            return kept
        }
    }

    /// The id of the newest request; 0 before the first.
    var lastID: Int64 { state.withLock { $0.lastID } }

    /// Signals, one per batch of new requests (at most one pending: they coalesce), until the
    /// sequence is dropped or its iterating task is cancelled.
    func subscribe() -> AsyncStream<Void> {
        let (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = state.withLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
        }
        return signals
    }

    /// The number of subscribers now.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    private func slot(of id: Int64) -> Int {
        Int((id - 1) % Int64(capacity))
    }

    private func collect(from first: Int64, count: Int, in state: borrowing State) -> [LoggedRequest] {
        (0..<count).compactMap { state.ring[slot(of: first + Int64($0))] }
    }
}
