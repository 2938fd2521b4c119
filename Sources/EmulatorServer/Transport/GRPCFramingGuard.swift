import DocumentModel
import NIOCore
import NIOHPACK
import NIOHTTP2

/// The first handler of every gRPC stream: reads the length-prefixed framing of the client's
/// messages as it arrives and answers a malformed frame with a gRPC status, as Google's
/// emulator does, where grpc-swift's transport would only reset the stream (`RST_STREAM`
/// CANCEL), which clients report as a bare cancellation.
///
/// Two prefixes are refused before any of the message is buffered:
/// - the compressed flag: the server enables no compression, so a compressed message can't be
///   read (INTERNAL, Google's code; a `grpc-encoding` the server lacks is refused by the
///   transport at the headers already);
/// - a length above the transport's cap (`RequestSizeLimit.transportLimit`), such as a 4 GiB
///   prefix: INVALID_ARGUMENT with the request-size message, the code every size limit answers
///   (clients retry RESOURCE_EXHAUSTED, which Google's emulator answers here, until their
///   deadline).
///
/// The status goes out as a trailers-only response (or as trailers, after response headers
/// sent already), and the stream is then closed, which ends the RPC's handler; nothing the handler writes afterwards reaches the client. Well-formed
/// streams pass through untouched: the guard reads only the 5-byte prefixes and counts the
/// message bytes between them.
final class GRPCFramingGuard: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private static let prefixLength = 5

    /// The request-size limit; its `transportLimit` caps one message.
    private let sizeLimit: RequestSizeLimit
    /// The bytes of the current message prefix read so far.
    private var prefix: [UInt8] = []
    /// The bytes of the current message still to come.
    private var messageRemaining = 0
    /// Whether the stream was answered with a status: everything after is dropped.
    private var refused = false
    /// Whether the server sent its response headers: the status then goes out as trailers.
    private var responseStarted = false

    init(sizeLimit: RequestSizeLimit) {
        self.sizeLimit = sizeLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let payload = unwrapInboundIn(data)
        if case .data(let frame) = payload, case .byteBuffer(let bytes) = frame.data,
            let status = inspect(bytes.readableBytesView)
        {
            refuse(context: context, with: status)
            return
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !refused else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        if case .headers = unwrapOutboundIn(data) { responseStarted = true }
        context.write(data, promise: promise)
    }

    /// Reads the prefixes in `bytes`, the next part of the stream's messages: the status to
    /// answer for a malformed one, or nil.
    private func inspect(_ bytes: ByteBufferView) -> WireStatus? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if messageRemaining > 0 {
                let skipped = min(messageRemaining, bytes.endIndex - index)
                messageRemaining -= skipped
                index += skipped
                continue
            }
            prefix.append(bytes[index])
            index += 1
            guard prefix.count == Self.prefixLength else { continue }
            let compressed = prefix[0] != 0
            let length = prefix[1...].reduce(0) { $0 << 8 | Int($1) }
            prefix.removeAll(keepingCapacity: true)
            if compressed {
                return WireStatus(.internal, "Can't decode compressed gRPC message as compression not configured")
            }
            if length > sizeLimit.transportLimit {
                return WireStatus(
                    .invalidArgument, "\(sizeLimit.error.message) The message's length prefix says \(length) bytes.")
            }
            messageRemaining = length
        }
        return nil
    }

    /// Answers with `status` (a trailers-only response, or trailers after the response
    /// headers), then closes the stream.
    private func refuse(context: ChannelHandlerContext, with status: WireStatus) {
        refused = true
        context.endGRPCStream(with: status, responseStarted: responseStarted)
    }
}
