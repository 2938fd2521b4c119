import DocumentModel
import FirestoreProto
import NIOCore
import NIOHPACK
import NIOHTTP2
import SwiftProtobuf

/// Serves `google.firestore.v1.Firestore/Listen` streams below grpc-swift, so that an idle
/// stream costs its HTTP/2 stream channel and its session's state, and no task.
///
/// A grpc-swift call keeps a chain of tasks for as long as it lasts (the server's, the call
/// executor's, the request reader's, the response writer's): about 20 KB of async frames that a
/// listener holds for hours (BENCHMARKS.md, "Reliability"). This handler, on every gRPC stream
/// behind the `StreamDeadline` and the `GRPCFramingGuard`, reads the request headers:
///
/// - any other call (or a Listen call that is not gRPC, or that is compressed, which grpc-swift
///   refuses) is passed on to grpc-swift, and the handler removes itself;
/// - a Listen call is served here and grpc-swift never hears of it (its stream task waits for
///   the call's headers until the stream closes, a few hundred bytes). The response headers go
///   out at once, as grpc-swift's server sends them (its client sends no request before it
///   sees them). The request messages are decoded as they arrive and go to the stream's `ListenStreamDriver`, which answers them and
///   the targets' changes on the store's reader threads; its responses come back here and are
///   written as one DATA frame a batch. The next batch waits until the stream is writable.
///
/// The stream ends as a grpc-swift call would: with OK after the client half-closes, the status
/// of a malformed request, or UNAVAILABLE when the server shuts down (the transport's
/// `ChannelShouldQuiesceEvent`); a client that goes away just stops the session.
final class ListenStreamHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    /// The path of the calls served here.
    static let path = "/google.firestore.v1.Firestore/Listen"

    private enum Mode {
        /// Before the request headers.
        case awaitingHeaders
        /// Serving a Listen call through its driver.
        case serving(ListenStreamDriver)
        /// The call is over: its status went out, or its stream closed.
        case over
    }

    private let streams: ListenStreams
    /// The driver's output refers to this handler, and this to the driver, until the call ends.
    private var mode = Mode.awaitingHeaders
    private var reader = GRPCMessageReader()
    /// Whether the client's requests are over: it half-closed, or one could not be read.
    private var requestsEnded = false
    /// Whether the stream closed (its handlers removed): nothing more is written.
    private var isRemoved = false
    /// Whether the driver waits for the stream to become writable before its next batch.
    private var awaitsWritability = false

    init(streams: ListenStreams) {
        self.streams = streams
    }

    private var driver: ListenStreamDriver? {
        guard case .serving(let driver) = mode else { return nil }
        return driver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .serving(let driver) = mode else {
            guard case .awaitingHeaders = mode else { return }
            guard case .headers(let request) = unwrapInboundIn(data), Self.serves(request.headers) else {
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            start(context: context, authorization: request.headers.first(name: "authorization"))
            // At once, as grpc-swift's server does: its client sends no request before it sees them.
            context.writeAndFlush(
                wrapOutboundOut(.headers(.init(headers: ChannelHandlerContext.responseHeaders))), promise: nil)
            return
        }
        guard !requestsEnded, case .data(let frame) = unwrapInboundIn(data) else { return }
        if case .byteBuffer(let bytes) = frame.data { reader.append(bytes) }
        while let message = reader.next() {
            guard let request = try? Google_Firestore_V1_ListenRequest(serializedBytes: Array(message.readableBytesView))
            else {
                // grpc-swift's message for an unreadable request of any other call.
                endRequests(.failed(FirestoreError.invalidArgument(
                    "Can't deserialize to message of type \(Google_Firestore_V1_ListenRequest.self).")))
                return
            }
            driver.post(.client(.request(request)))
        }
        guard frame.endStream else { return }
        endRequests(
            reader.isInsideMessage
                ? .failed(FirestoreError.invalidArgument("The Listen stream's requests ended inside a message"))
                : .ended)
    }

    /// Whether a call with these request headers is served here.
    private static func serves(_ headers: HPACKHeaders) -> Bool {
        guard headers.first(name: ":path") == path, let type = headers.first(name: "content-type"),
            type.hasPrefix("application/grpc"), !type.hasPrefix("application/grpc-web")
        else { return false }
        let encoding = headers.first(name: "grpc-encoding")
        return encoding == nil || encoding == "identity"
    }

    private func start(context: ChannelHandlerContext, authorization: String?) {
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let boundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        mode = .serving(
            streams.makeDriver(authorization: authorization) { output in
                eventLoop.execute { handler.value.deliver(output, context: boundContext.value) }
            })
    }

    private func endRequests(_ input: ClientInput<Google_Firestore_V1_ListenRequest>) {
        requestsEnded = true
        driver?.post(.client(input))
    }

    /// Writes a batch's output, then lets the driver go on once the stream can take more.
    private func deliver(_ output: ListenStreamDriver.Output, context: ChannelHandlerContext) {
        guard case .serving(let driver) = mode else { return }
        if !isRemoved, let messages = output.messages {
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(messages)))), promise: nil)
        }
        if let end = output.end {
            mode = .over
            if !isRemoved { context.endGRPCStream(with: end, responseStarted: true) }
            return
        }
        // A closed stream takes no writes, but its driver must still hear that the client left.
        guard !isRemoved, context.channel.isActive else {
            driver.resume()
            return
        }
        context.flush()
        if context.channel.isWritable {
            driver.resume()
        } else {
            awaitsWritability = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if awaitsWritability, context.channel.isWritable {
            awaitsWritability = false
            driver?.resume()
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The server is shutting down: the session ends with UNAVAILABLE, and clients listen
        // again. A client that stopped reading would hold the shutdown up (the status waits
        // behind the responses it does not read), so a stream still open 2 seconds on is closed,
        // which resets it.
        if event is ChannelShouldQuiesceEvent, let driver {
            driver.post(.client(.cancelled))
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        streamClosed()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        streamClosed()
    }

    /// The client went away, or the stream ended: the session stops its listeners, and its
    /// driver goes on to do so even if it waited for the stream to become writable.
    private func streamClosed() {
        guard !isRemoved else { return }
        isRemoved = true
        driver?.post(.client(.failed(CancellationError())))
        if awaitsWritability {
            awaitsWritability = false
            driver?.resume()
        }
    }
}
