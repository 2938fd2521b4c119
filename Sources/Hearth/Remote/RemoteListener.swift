import DocumentModel
import FirestoreProto
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Synchronization

/// Keeps one target listened to over `Listen` streams, as the Firebase SDKs do: when a stream
/// breaks (the server restarts, the connection drops, the server ends it) the target is added
/// again on a new stream after a backoff, and the listener goes on. Only an answer about the
/// target itself (a rules denial, an invalid query: `REMOVE` with a cause), or the caller
/// stopping, ends it.
///
/// A new stream starts the target afresh; its first snapshot is delivered only when it differs
/// from the last one delivered, so a reconnection shows the changes made meanwhile and nothing
/// else.
struct RemoteListener: Sendable {
    let firestore: Google_Firestore_V1_Firestore.Client<HTTP2ClientTransport.Posix>
    let database: DatabaseID
    let target: ListenTarget
    let metadata: Metadata
    /// Whether the backend has been shut down: then no stream is opened again.
    let isShutDown: @Sendable () -> Bool

    /// The first wait before listening again, doubled after each failed attempt up to `maximumBackoff`.
    static let initialBackoff: Duration = .milliseconds(100)
    static let maximumBackoff: Duration = .seconds(5)

    /// Delivers the target's snapshots to `continuation` until the task is cancelled or the
    /// target is refused.
    func run(into continuation: AsyncThrowingStream<ListenResult, any Error>.Continuation) async {
        let delivery = Delivery(continuation: continuation)
        var backoff = Self.initialBackoff
        while !Task.isCancelled && !isShutDown() {
            let deliveredBefore = delivery.count
            do {
                try await listenOnce(delivery)
            } catch let error as TargetRefused {
                continuation.finish(throwing: error.error)
                return
            } catch let error as RPCError where !Self.retried.contains(error.code) {
                let code = FirestoreError.Code(rawValue: error.code.rawValue) ?? .unknown
                continuation.finish(throwing: FirestoreError(code, error.message))
                return
            } catch {
                // A broken stream: listen again below.
            }
            if delivery.count > deliveredBefore { backoff = Self.initialBackoff }
            do {
                try await Task.sleep(for: backoff)
            } catch {
                break
            }
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
        continuation.finish()
    }

    /// The failures of a stream after which the target is listened to again, as the SDKs do;
    /// any other status (a bad token, an invalid request) ends the listener with its error.
    static let retried: Set<RPCError.Code> = [
        .unavailable, .unknown, .internalError, .deadlineExceeded, .resourceExhausted, .aborted, .cancelled,
    ]

    /// The target refused by the server: not worth listening again.
    private struct TargetRefused: Error {
        let error: FirestoreError
    }

    /// Yields snapshots, skipping one equal to the last yielded (a new stream's first).
    private final class Delivery: Sendable {
        private let continuation: AsyncThrowingStream<ListenResult, any Error>.Continuation
        /// The documents last yielded, and how many snapshots were yielded.
        private let last = Mutex<(documents: [Document]?, count: Int)>((nil, 0))

        init(continuation: AsyncThrowingStream<ListenResult, any Error>.Continuation) {
            self.continuation = continuation
        }

        var count: Int { last.withLock { $0.count } }

        func deliver(_ result: ListenResult) {
            let isNew = last.withLock { last in
                guard result.documents != last.documents else { return false }
                last = (result.documents, last.count + 1)
                return true
            }
            if isNew { continuation.yield(result) }
        }
    }

    /// One `Listen` stream, from adding the target until the stream ends or fails.
    private func listenOnce(_ delivery: Delivery) async throws {
        let request = RemoteListenState.request(for: target, in: database)
        let target = target
        try await firestore.listen(
            request: StreamingClientRequest(metadata: metadata) { writer in
                try await writer.write(request)
                // Keep the request side open until the listener stops.
                try await Task.sleep(for: .seconds(365 * 86400))
            }
        ) { response in
            var state = RemoteListenState(target: target)
            for try await message in response.messages {
                let result: ListenResult?
                do {
                    result = try state.apply(message)
                } catch let error as FirestoreError {
                    throw TargetRefused(error: error)
                }
                if let result { delivery.deliver(result) }
            }
        }
    }
}
