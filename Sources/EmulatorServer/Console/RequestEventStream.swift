import DocumentModel

/// `GET /ui/api/requests/events`: each request logged from now on as a Server-Sent Event
/// (`id: {id}`, `event: request`, `data: {entry}`).
///
/// The stream reads the `RequestLog` when woken, `gatherDelay` after the first new request so
/// that a busy server's requests go out in batches (one write of up to `batchSize` events, not
/// one wake-up and one write per request), and waits for each write to reach the connection: a
/// slow client costs the log nothing, and one that falls more than the log's capacity behind
/// skips what the log no longer holds.
struct RequestEventStream: Sendable {
    /// The most entries read from the log at once.
    static let batchSize = 500
    /// How long the stream waits after being woken, gathering requests before it writes.
    static let gatherDelay = Duration.milliseconds(100)

    let log: RequestLog

    /// The response.
    var eventStream: EventStream {
        EventStream { [log] writer in
            // Subscribed before reading where the log is, so no request falls in between.
            let signals = log.subscribe()
            var sent = log.lastID
            for await _ in signals {
                try await Task.sleep(for: RequestEventStream.gatherDelay)
                while true {
                    let batch = log.requests(after: sent, limit: RequestEventStream.batchSize)
                    guard let last = batch.last else { break }
                    let text = batch.map { request in
                        EventStreamWriter.text(
                            event: "request", id: String(request.id), data: ConsoleJSON.entry(request).serialized())
                    }.joined()
                    try await writer.write(Array(text.utf8))
                    sent = last.id
                }
            }
        }
    }
}
