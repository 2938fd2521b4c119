/// The body of a Server-Sent Events response: a producer that writes events until it is done or
/// cancelled, with a `: keep-alive` comment every `keepAliveInterval` meanwhile.
///
/// The producer is cancelled when the client goes away (its writes then fail too) or the
/// server stops; the response ends when it returns.
struct EventStream: Sendable {
    /// How often a comment is sent to keep the connection open through idle periods.
    static let keepAliveInterval = Duration.seconds(15)

    /// Writes the events; returns when the stream is over.
    let produce: @Sendable (EventStreamWriter) async throws -> Void

    /// Runs the producer and the keep-alive comments until the producer returns or fails, or
    /// the task is cancelled.
    func run(_ writer: EventStreamWriter) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await produce(writer) }
            group.addTask {
                while !Task.isCancelled {
                    do {
                        try await Task.sleep(for: EventStream.keepAliveInterval)
                        try await writer.comment("keep-alive")
                    } catch {
                        return
                    }
                }
            }
            // Whichever ends first (the producer, or a failed keep-alive write) ends the stream.
            await group.next()
            group.cancelAll()
        }
    }
}
