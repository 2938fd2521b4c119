import NIOCore
import NIOHTTP1

/// The first handler of every accepted connection: tells HTTP/2 (gRPC) from HTTP/1.1 (REST and
/// the admin endpoints) by the connection's first bytes, so that both share one port.
///
/// Each connection is set up for gRPC when it is accepted (the transport's
/// `ConnectionConfigurator` adds its HTTP/2 handlers behind this one), and this gate holds it
/// back until the client's first bytes arrive:
///
/// - They begin with the HTTP/2 client preface (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`): the gate
///   releases what the HTTP/2 side wrote meanwhile (its SETTINGS), puts a `ClientFrameRewriter`
///   behind itself, passes the bytes on and removes itself.
/// - Anything else is HTTP/1.1: the gate puts NIO's HTTP/1 server handlers and a
///   `RESTChannelHandler` in front of itself and replays the bytes into them. From then on the
///   REST handlers own the connection; the idle HTTP/2 side behind the gate never sees a byte,
///   and anything it writes is dropped here. Closing the connection ends both.
final class ProtocolGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    /// The HTTP/2 client connection preface (RFC 9113, section 3.4).
    static let http2Preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    private enum State {
        /// Reading the first bytes; the HTTP/2 side's writes are held.
        case sniffing(read: ByteBuffer?, held: [(NIOAny, EventLoopPromise<Void>?)], flushHeld: Bool)
        /// HTTP/2: passing everything through until removed.
        case http2
        /// HTTP/1.1: the REST handlers in front own the connection; the HTTP/2 side is muted.
        case http1
    }

    private var state = State.sniffing(read: nil, held: [], flushHeld: false)
    private let makeRESTHandler: @Sendable () -> RESTChannelHandler

    /// A gate that hands HTTP/1.1 connections to handlers that `makeRESTHandler` makes.
    init(makeRESTHandler: @escaping @Sendable () -> RESTChannelHandler) {
        self.makeRESTHandler = makeRESTHandler
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .sniffing(let read, let held, let flushHeld) = state else {
            if case .http2 = state { context.fireChannelRead(data) }
            return
        }
        var bytes = read ?? context.channel.allocator.buffer(capacity: 32)
        var incoming = unwrapInboundIn(data)
        bytes.writeBuffer(&incoming)
        let prefix = bytes.readableBytesView.prefix(ProtocolGate.http2Preface.count)
        guard prefix.elementsEqual(ProtocolGate.http2Preface.prefix(prefix.count)) else {
            becomeHTTP1(context: context, read: bytes, held: held)
            return
        }
        guard prefix.count == ProtocolGate.http2Preface.count else {
            state = .sniffing(read: bytes, held: held, flushHeld: flushHeld)
            return
        }
        state = .http2
        for (data, promise) in held { context.write(data, promise: promise) }
        if flushHeld { context.flush() }
        do {
            try context.pipeline.syncOperations.addHandler(ClientFrameRewriter(), position: .after(self))
        } catch {
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(wrapInboundOut(bytes))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func becomeHTTP1(context: ChannelHandlerContext, read: ByteBuffer, held: [(NIOAny, EventLoopPromise<Void>?)]) {
        state = .http1
        for (_, promise) in held { promise?.succeed() }
        do {
            let pipeline = context.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                position: .before(self), withPipeliningAssistance: true, withErrorHandling: true)
            try pipeline.addHandler(makeRESTHandler(), position: .before(self))
            pipeline.fireChannelRead(NIOAny(read))
        } catch {
            context.close(promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .sniffing = state { return }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch state {
        case .sniffing(let read, var held, let flushHeld):
            held.append((data, promise))
            state = .sniffing(read: read, held: held, flushHeld: flushHeld)
        case .http2:
            context.write(data, promise: promise)
        case .http1:
            promise?.succeed()
        }
    }

    func flush(context: ChannelHandlerContext) {
        switch state {
        case .sniffing(let read, let held, _): state = .sniffing(read: read, held: held, flushHeld: true)
        case .http2: context.flush()
        case .http1: break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failHeldWrites()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failHeldWrites()
    }

    private func failHeldWrites() {
        guard case .sniffing(let read, let held, _) = state else { return }
        state = .sniffing(read: read, held: [], flushHeld: false)
        for (_, promise) in held { promise?.fail(ChannelError.ioOnClosedChannel) }
    }
}
