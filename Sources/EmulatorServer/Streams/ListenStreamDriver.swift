import DocumentModel
import FirestoreProto
import NIOConcurrencyHelpers
import NIOCore
import SwiftProtobuf

/// Runs one Listen stream's `ListenSession` for its `ListenStreamHandler`, a batch of events at
/// a time on the store's reader threads. Nothing waits while the stream is idle: no task, no
/// frame, only the session's state.
///
/// Events queue here: the client's requests (from the handler, on the event loop) and the
/// targets' wake-ups (from committing threads). An event arriving while no batch is under way
/// starts one: a short task on the store's reader threads takes everything queued, has the
/// session answer it with the request's recorders bound, encodes the responses and hands them
/// to the handler on the event loop. One batch is under way at a time, until the handler has
/// written its responses and the stream can take more (`resume()`): a client that reads slowly
/// leaves its targets' changes in the store's listeners, which coalesce them, not in a buffer.
///
/// The whole stream is one request for the `RequestRunner`: it opens with the first batch (the
/// log path is the opening request's database) and is reported when the stream ends.
final class ListenStreamDriver: Sendable {
    /// What the handler is given after a batch.
    struct Output: Sendable {
        /// The encoded responses (gRPC's length-prefixed messages), if any.
        var messages: ByteBuffer?
        /// The stream's end, once it ends: `nil` for OK, or the status to send.
        var end: WireStatus??
    }

    private struct Queue {
        var events: [ListenEvent] = []
        /// A batch is scheduled, running, or its responses not yet written.
        var isBusy = false
        /// The stream ended: later events are dropped.
        var isOver = false
    }

    /// The work only batches touch, one batch at a time (`Queue.isBusy` hands it from one to
    /// the next, under a lock ThreadSanitizer sees).
    private final class Work: @unchecked Sendable {
        var scope: RequestScope?
        var session: ListenSession?
    }

    private let queue = NIOLockedValueBox(Queue())
    private let work = Work()
    private let authorization: String?
    private let streams: ListenStreams
    /// Receives each batch's output, on the stream's event loop.
    private let deliver: @Sendable (Output) -> Void

    init(authorization: String?, streams: ListenStreams, deliver: @escaping @Sendable (Output) -> Void) {
        self.authorization = authorization
        self.streams = streams
        self.deliver = deliver
    }

    /// Queues `event`, starting a batch unless one is under way. Never blocks.
    func post(_ event: ListenEvent) {
        let start = queue.withLockedValue { queue -> Bool in
            guard !queue.isOver else { return false }
            queue.events.append(event)
            guard !queue.isBusy else { return false }
            queue.isBusy = true
            return true
        }
        if start { startBatch() }
    }

    /// Called by the handler once a batch's responses are written and the stream can take
    /// more: starts the next batch if events are waiting.
    func resume() {
        let start = queue.withLockedValue { queue -> Bool in
            guard !queue.isOver, !queue.events.isEmpty else {
                queue.isBusy = false
                return false
            }
            return true
        }
        if start { startBatch() }
    }

    /// Detached: a batch started by a commit's wake-up must not inherit the committing
    /// request's task-locals (its rules recorder, say).
    private func startBatch() {
        Task.detached(executorPreference: streams.readers) { self.runBatch() }
    }

    /// One batch, on a reader thread.
    private func runBatch() {
        let events = queue.withLockedValue { queue -> [ListenEvent] in
            defer { queue.events = [] }
            return queue.events
        }
        let output = answer(events)
        if output.end != nil {
            queue.withLockedValue { queue in
                queue.isOver = true
                queue.events = []
            }
            streams.ended()
        }
        deliver(output)
    }

    /// The session's answer to `events`, opening the stream's request and session with the
    /// first batch, and closing them when the stream ends.
    private func answer(_ events: [ListenEvent]) -> Output {
        guard let scope = work.scope, let session = work.session else { return open(with: events) }
        do {
            let (responses, end) = try scope.withLocals { _ in try session.answer(events) }
            let messages = try Self.encode(responses)
            guard let end else { return Output(messages: messages) }
            close(failure: nil)
            switch end {
            case .closed: return Output(messages: messages, end: .some(nil))
            case .cancelled:
                return Output(
                    messages: messages,
                    end: WireStatus(.unavailable, "The Listen stream was cancelled: the server is shutting down"))
            }
        } catch {
            let status = WireStatus(error)
            close(failure: status)
            return Output(end: status)
        }
    }

    /// Opens the request and the session with the stream's first events, and answers them.
    private func open(with events: [ListenEvent]) -> Output {
        // Nothing to answer when the client left, or closed its side, before a request.
        guard let path = ListenEvent.logPath(opening: events) else { return Output(end: .some(nil)) }
        let scope: RequestScope
        do throws(WireStatus) {
            scope = try streams.runner.begin(.grpc, method: "Listen", path: path, authorization: authorization)
        } catch {
            return Output(end: error)
        }
        streams.runner.prepareRules(for: scope)
        work.scope = scope
        do {
            work.session = try scope.withLocals { context in
                if path != "-" { _ = try streams.api.seededDatabase(path) }
                return ListenSession(store: streams.api.store, identity: context.identity) { [weak self] event in
                    self?.post(event)
                }
            }
        } catch {
            let status = WireStatus(error)
            close(failure: status)
            return Output(end: status)
        }
        return answer(events)
    }

    /// Stops the session's listeners and reports the stream's request.
    private func close(failure: WireStatus?) {
        work.session?.stop()
        work.session = nil
        if let scope = work.scope { streams.runner.finish(scope, failure: failure) }
        work.scope = nil
    }

    /// `responses` as gRPC messages: each a 5-byte prefix (uncompressed, its length) and its bytes.
    private static func encode(_ responses: [Google_Firestore_V1_ListenResponse]) throws -> ByteBuffer? {
        guard !responses.isEmpty else { return nil }
        var buffer = ByteBuffer()
        for response in responses {
            let bytes: [UInt8] = try response.serializedBytes()
            buffer.writeInteger(UInt8(0))
            buffer.writeInteger(UInt32(bytes.count))
            buffer.writeBytes(bytes)
        }
        return buffer
    }
}
