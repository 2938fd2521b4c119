import NIOConcurrencyHelpers

/// The server's Listen streams, which it serves below grpc-swift (`ListenStreamHandler`): makes
/// each stream's handler and knows which streams are still open, so that the server's `run()`
/// returns only once every session has stopped its store listeners (the store may be closed
/// next).
final class ListenStreams: Sendable {
    let api: FirestoreAPI
    let runner: RequestRunner
    /// Where sessions answer their events: the store's reader threads.
    var readers: any TaskExecutor { runner.readers }

    private struct Open {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let open = NIOLockedValueBox(Open())

    init(api: FirestoreAPI, runner: RequestRunner) {
        self.api = api
        self.runner = runner
    }

    /// A handler for a new HTTP/2 stream: it serves the stream if it is a Listen call, and
    /// steps aside otherwise.
    func makeHandler() -> ListenStreamHandler {
        ListenStreamHandler(streams: self)
    }

    /// A driver for a Listen stream that just opened, counted open until it ends.
    func makeDriver(
        authorization: String?, deliver: @escaping @Sendable (ListenStreamDriver.Output) -> Void
    ) -> ListenStreamDriver {
        open.withLockedValue { $0.count += 1 }
        return ListenStreamDriver(authorization: authorization, streams: self, deliver: deliver)
    }

    /// Called by a driver whose stream ended: its session is stopped.
    func ended() {
        let waiters = open.withLockedValue { open -> [CheckedContinuation<Void, Never>] in
            open.count -= 1
            guard open.count == 0 else { return [] }
            defer { open.waiters = [] }
            return open.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no stream is open. Call after the transport closed every connection: each
    /// stream then ends by itself, with the batch its closing started.
    func waitUntilAllEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = open.withLockedValue { open -> Bool in
                guard open.count > 0 else { return true }
                open.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
