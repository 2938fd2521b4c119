import NIOCore
import NIOHTTP2

/// The first handler of a stream over the connection's stream limit: refuses it alone with
/// `RST_STREAM` REFUSED_STREAM when its request headers arrive (clients may retry a refused
/// stream: the server did nothing with it) and passes nothing on, so the call never starts.
final class StreamRefuser: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        refused = true
        context.writeAndFlush(wrapOutboundOut(.rstStream(.refusedStream)), promise: nil)
    }
}
