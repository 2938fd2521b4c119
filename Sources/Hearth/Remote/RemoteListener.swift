import DocumentModel
import FirestoreProto
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Synchronization

/// Keeps one target listened to over `Listen` streams, as the Firebase SDKs do: when a stream
/// breaks (the server restarts, the connection drops, the server ends it) the target is added
/// again on a new stream after a backoff, with the last resume token, and the listener goes
/// on. Only an answer about the target itself (a rules denial, an invalid query: `REMOVE` with
/// a cause), or the caller stopping, ends it.
struct RemoteListener: Sendable {
    let firestore: Google_Firestore_V1_Firestore.Client<HTTP2ClientTransport.Posix>
    let database: DatabaseID
    let target: ListenTarget
    /// Where the first stream resumes from (a token and documents from the local cache).
    let resume: WatchResume?
    let metadata: Metadata
    /// Whether the backend has been shut down: then no stream is opened again.
    let isShutDown: @Sendable () -> Bool

    /// The first wait before listening again, doubled after each failed attempt up to `maximumBackoff`.
    static let initialBackoff: Duration = .milliseconds(100)
    static let maximumBackoff: Duration = .seconds(2)

    /// Reports the target's events to `continuation` until the task is cancelled or the
    /// target is refused.
    func run(into continuation: AsyncStream<WatchEvent>.Continuation) async {
        let progress = Progress(target: target, resume: resume)
        var backoff = Self.initialBackoff
        var connected = true
        while !Task.isCancelled && !isShutDown() {
            progress.delivered.store(false, ordering: .relaxed)
            do {
                try await listenOnce(progress, continuation)
            } catch is ExistenceFilterMismatch {
                continue  // listen again at once, from scratch
            } catch let error as FirestoreError {
                // The target was refused. A resume token the server no longer knows (a restarted
                // emulator) can be the cause: try once more from scratch before giving up.
                let hadToken = progress.state.withLock { state in
                    guard !state.resumeToken.isEmpty else { return false }
                    state.forgetResumeToken()
                    return true
                }
                if hadToken { continue }
                continuation.yield(.failed(error))
                break
            } catch let error as RPCError where !Self.retried.contains(error.code) {
                let code = FirestoreError.Code(rawValue: error.code.rawValue) ?? .unknown
                continuation.yield(.failed(FirestoreError(code, error.message)))
                break
            } catch {
                // A broken stream: listen again below.
            }
            if Task.isCancelled || isShutDown() { break }
            let delivered = progress.delivered.load(ordering: .relaxed)
            if delivered || connected {
                connected = false
                continuation.yield(.disconnected)
            }
            if delivered { backoff = Self.initialBackoff }
            do {
                try await Task.sleep(for: backoff)
            } catch {
                break
            }
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
        continuation.finish()
    }

    /// The target's state across streams, and whether the current stream delivered a snapshot.
    private final class Progress: Sendable {
        let state: Mutex<RemoteListenState>
        let delivered = Atomic<Bool>(false)

        init(target: ListenTarget, resume: WatchResume?) {
            state = Mutex(RemoteListenState(target: target, resume: resume))
        }
    }

    /// The failures of a stream after which the target is listened to again, as the SDKs do;
    /// any other status (a bad token, an invalid request) ends the listener with its error.
    static let retried: Set<RPCError.Code> = [
        .unavailable, .unknown, .internalError, .deadlineExceeded, .resourceExhausted, .aborted, .cancelled,
    ]

    /// One `Listen` stream, from adding the target until the stream ends or fails.
    private func listenOnce(_ progress: Progress, _ continuation: AsyncStream<WatchEvent>.Continuation) async throws {
        let request = progress.state.withLock { $0.startStream(in: database) }
        try await firestore.listen(
            request: StreamingClientRequest(metadata: metadata) { writer in
                try await writer.write(request)
                // Keep the request side open until the listener stops.
                try await Task.sleep(for: .seconds(365 * 86400))
            }
        ) { response in
            for try await message in response.messages {
                if let snapshot = try progress.state.withLock({ try $0.apply(message) }) {
                    progress.delivered.store(true, ordering: .relaxed)
                    continuation.yield(.snapshot(snapshot))
                }
            }
        }
    }
}
