/// What the HTTP/1.1 side answers a request with: one whole response, or a stream of
/// Server-Sent Events that lasts until its producer ends, the client leaves or the server stops.
enum HTTPReply: Sendable {
    /// A response written at once.
    case response(HTTPResponse)
    /// `200` with `content-type: text/event-stream`, then the stream's events as they come.
    case eventStream(EventStream)
}
