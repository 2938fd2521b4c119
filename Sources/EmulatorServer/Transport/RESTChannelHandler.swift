import DocumentModel
import NIOCore
import NIOHTTP1

/// Serves HTTP/1.1 requests on one connection: collects a request's head and body (up to the
/// request size limit), asks the `RESTGateway` for the reply off the event loop, and writes it
/// back: a whole response, or a Server-Sent Events stream (see `writeEventStream`). NIO's
/// `HTTPServerPipelineHandler` in front of it delivers one request at a time and closes the
/// connection gracefully when the server quiesces.
final class RESTChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let gateway: RESTGateway
    private let sizeLimit: RequestSizeLimit
    private let eventStreams: OpenEventStreams
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    /// The event stream being written on this connection, if any.
    private var eventStreamTask: Task<Void, Never>?

    init(gateway: RESTGateway, sizeLimit: RequestSizeLimit, eventStreams: OpenEventStreams) {
        self.gateway = gateway
        self.sizeLimit = sizeLimit
        self.eventStreams = eventStreams
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            tooLarge = false
            if head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                let interim = HTTPResponseHead(version: head.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            }
        case .body(var buffer):
            guard !tooLarge else { return }
            if body.count + buffer.readableBytes > sizeLimit.bytes {
                tooLarge = true
                body = []
            } else {
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            }
        case .end:
            guard let head else { return }
            self.head = nil
            if tooLarge {
                write(.error(WireStatus(sizeLimit.error)), for: head, keepAlive: false, context: context)
                return
            }
            let local = context.channel.localAddress
            let request = HTTPRequest(
                head: head, body: body,
                serverAddress: local.flatMap { address in
                    address.ipAddress.flatMap { host in address.port.map { ServerAddress(host: host, port: $0) } }
                })
            body = []
            let gateway = self.gateway
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.makeFutureWithTask { await gateway.respond(to: request) }.whenSuccess { reply in
                let (handler, context) = bound.value
                switch reply {
                case .response(let response):
                    handler.write(response, for: head, keepAlive: head.isKeepAlive, context: context)
                case .eventStream(let stream):
                    handler.writeEventStream(stream, for: head, context: context)
                }
            }
        }
    }

    /// Ends the event stream of a connection the client closed.
    func channelInactive(context: ChannelHandlerContext) {
        eventStreamTask?.cancel()
        eventStreamTask = nil
        context.fireChannelInactive()
    }

    /// Swallows the quiesce event: `HTTPServerPipelineHandler` acts on it for HTTP/1.1, and the
    /// idle HTTP/2 side behind this connection must not close it mid-request.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { return }
        context.fireUserInboundEventTriggered(event)
    }

    /// Writes the head of an event stream (`text/event-stream`, not cached, chunked, and the
    /// connection closed after it), then runs the stream, each event flushed as it is written,
    /// and ends the response and closes the connection when the stream is over: its producer
    /// returned, the client went away (`channelInactive` cancels it), or the server is stopping
    /// (`OpenEventStreams.cancelAll()`, `closeAll()`).
    private func writeEventStream(_ stream: EventStream, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "text/event-stream; charset=utf-8")
        headers.add(name: "cache-control", value: "no-cache")
        headers.add(name: "connection", value: "close")
        let head = HTTPResponseHead(version: request.version, status: .ok, headers: headers)
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let writer = EventStreamWriter { bytes in
            try await eventLoop.flatSubmit {
                let (handler, context) = bound.value
                guard context.channel.isActive else {
                    return eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                let buffer = context.channel.allocator.buffer(bytes: bytes)
                return context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(buffer))))
            }.get()
        }
        eventStreamTask = eventStreams.start(stream, writer: writer) {
            eventLoop.execute {
                let (handler, context) = bound.value
                handler.eventStreamTask = nil
                let channel = context.channel
                context.writeAndFlush(handler.wrapOutboundOut(.end(nil))).whenComplete { _ in
                    channel.close(promise: nil)
                }
            }
        }
        // A client gone before the stream started: `channelInactive` has passed already.
        if !context.channel.isActive { eventStreamTask?.cancel() }
    }

    private func write(_ response: HTTPResponse, for request: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        if let contentType = response.contentType { headers.add(name: "content-type", value: contentType) }
        if let location = response.location { headers.add(name: "location", value: location) }
        headers.add(name: "content-length", value: String(response.body.count))
        if !keepAlive { headers.add(name: "connection", value: "close") }
        let head = HTTPResponseHead(version: request.version, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
