import DocumentModel
import NIOCore
import NIOHTTP1

/// Serves HTTP/1.1 requests on one connection: collects a request's head and body (up to the
/// request size limit), asks the `RESTGateway` for the response off the event loop, and writes
/// it back. NIO's `HTTPServerPipelineHandler` in front of it delivers one request at a time and
/// closes the connection gracefully when the server quiesces.
final class RESTChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let gateway: RESTGateway
    private let sizeLimit: RequestSizeLimit
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false

    init(gateway: RESTGateway, sizeLimit: RequestSizeLimit) {
        self.gateway = gateway
        self.sizeLimit = sizeLimit
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
            let request = HTTPRequest(head: head, body: body)
            body = []
            let gateway = self.gateway
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.makeFutureWithTask { await gateway.respond(to: request) }.whenSuccess { response in
                let (handler, context) = bound.value
                handler.write(response, for: head, keepAlive: head.isKeepAlive, context: context)
            }
        }
    }

    /// Swallows the quiesce event: `HTTPServerPipelineHandler` acts on it for HTTP/1.1, and the
    /// idle HTTP/2 side behind this connection must not close it mid-request.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { return }
        context.fireUserInboundEventTriggered(event)
    }

    private func write(_ response: HTTPResponse, for request: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        if let contentType = response.contentType { headers.add(name: "content-type", value: contentType) }
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
