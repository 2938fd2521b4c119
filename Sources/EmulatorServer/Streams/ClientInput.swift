import DocumentModel
import GRPCCore

/// What a bidirectional stream hears from its client.
enum ClientInput<Request: Sendable>: Sendable {
    /// A request.
    case request(Request)
    /// The client closed its side of the stream.
    case ended
    /// Reading the requests failed: the client went away, or sent something unreadable.
    case failed(any Error)
    /// The RPC was cancelled: the server is shutting down, or the client left.
    case cancelled

    /// Reads `requests` into `inbox` on a new task (cancel it when the stream ends), and posts
    /// `.cancelled` when the RPC is cancelled, which is how a stream learns that the server is
    /// shutting down. Runs `body` meanwhile.
    static func pump<Event: Sendable, Result>(
        _ requests: RPCAsyncSequence<Request, any Error>, into inbox: SessionInbox<Event>,
        as event: @escaping @Sendable (ClientInput<Request>) -> Event, while body: () async throws -> Result
    ) async throws -> Result {
        let reader = Task { await read(requests, into: inbox, as: event) }
        defer { reader.cancel() }
        return try await withRPCCancellationHandler(operation: body) { post(.cancelled, to: inbox, as: event) }
    }

    /// Reads `requests` into `inbox` until they end or fail. This frame is what a stream waiting
    /// for its client keeps, so every input is built out of line: an inline `ClientInput` is the
    /// size of the largest request, and a few of them made the frame 3.6 KB.
    private static func read<Event: Sendable>(
        _ requests: RPCAsyncSequence<Request, any Error>, into inbox: SessionInbox<Event>,
        as event: @escaping @Sendable (ClientInput<Request>) -> Event
    ) async {
        var iterator = requests.makeAsyncIterator()
        do {
            while let request = try await iterator.next() { post(request: request, to: inbox, as: event) }
            post(.ended, to: inbox, as: event)
        } catch {
            post(failure: error, to: inbox, as: event)
        }
    }

    @inline(never)
    private static func post<Event: Sendable>(
        request: Request, to inbox: SessionInbox<Event>, as event: (ClientInput<Request>) -> Event
    ) {
        inbox.post(event(.request(request)))
    }

    @inline(never)
    private static func post<Event: Sendable>(
        failure: any Error, to inbox: SessionInbox<Event>, as event: (ClientInput<Request>) -> Event
    ) {
        inbox.post(event(.failed(failure)))
    }

    @inline(never)
    private static func post<Event: Sendable>(
        _ input: ClientInput<Request>, to inbox: SessionInbox<Event>, as event: (ClientInput<Request>) -> Event
    ) {
        inbox.post(event(input))
    }

    /// The request-log path of a stream whose first input is `first`: the opening request's
    /// `database`, or "-" when the client sent nothing readable (the session then ends the
    /// stream with the read error's status, never OK). Nil when the client left, or closed its
    /// side, before sending anything: nothing to answer.
    static func logPath(opening first: ClientInput?, database: (Request) -> String) -> String? {
        switch first {
        case .request(let opening)?:
            let name = database(opening)
            return name.isEmpty ? "-" : name
        case .failed(let error)? where !isDeparture(error):
            return "-"
        default:
            return nil
        }
    }

    /// Whether a failure to read requests means only that the client went away (cancelled the
    /// stream or closed its connection): how clients end listeners, so a normal end.
    static func isDeparture(_ error: any Error) -> Bool {
        guard let error = error as? RPCError else { return error is CancellationError }
        return error.code == .cancelled || error.code == .unavailable
    }
}

/// How a stream session ended without failing.
enum StreamEnd: Sendable {
    /// The client closed the stream, or went away.
    case closed
    /// The RPC was cancelled: the server is shutting down (or the client left, and nobody
    /// reads the status). Not a failure of the request, so it is logged as OK; the client gets
    /// UNAVAILABLE, on which the official clients reconnect and resume.
    case cancelled

    /// Throws the status the client gets for a cancelled stream.
    func check(_ method: String) throws(WireStatus) {
        guard case .cancelled = self else { return }
        throw WireStatus(.unavailable, "The \(method) stream was cancelled: the server is shutting down")
    }
}
