import DocumentModel
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Enforces a call's deadline (its `grpc-timeout` header) on the call's stream, in grpc-swift's
/// place.
///
/// grpc-swift runs each call that has a deadline beside a child task sleeping until it
/// (`Task.sleep`), cancelled when the call ends. In this server, on Swift 6.3 on Linux, those
/// sleeps never freed their wake-up jobs (about 150 bytes each; small programs making as many
/// cancelled sleeps do not leak, so the trigger was not isolated), and the official clients give
/// every call a deadline, so the heap grew with every call (heaptrack, in the 60-minute soak:
/// BENCHMARKS.md, "Soak"). This handler, the first of every gRPC stream, removes
/// the header before grpc-swift reads it and schedules the deadline on the stream's event loop
/// instead (a timer that the stream's end cancels). At the deadline it ends the stream with
/// DEADLINE_EXCEEDED and closes it, which ends the call's handler, as grpc-swift's cancellation
/// would; the client has given up on the call by then anyway.
final class StreamDeadline: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    /// The longest deadline scheduled: later ones (up to 99,999,999 hours) are as good as none.
    static let longest = TimeAmount.hours(24 * 365 * 100)

    private var timer: Scheduled<Void>?
    /// Whether the request headers came (only they may carry the deadline).
    private var sawRequestHeaders = false
    /// Whether the server sent its response headers: the status then goes out as trailers.
    private var responseStarted = false
    /// Whether the deadline passed: everything after is dropped.
    private var expired = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !expired else { return }
        guard !sawRequestHeaders, case .headers(var request) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        sawRequestHeaders = true
        if let value = request.headers.first(name: "grpc-timeout"), let timeout = Self.timeout(value) {
            request.headers.remove(name: "grpc-timeout")
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                expire(context: context)
            }
            context.fireChannelRead(wrapInboundOut(.headers(request)))
        } else {
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !expired else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        if case .headers(let headers) = unwrapOutboundIn(data) {
            responseStarted = true
            // The call is over once its status is out: no deadline left to enforce.
            if headers.endStream { cancelTimer() }
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    private func expire(context: ChannelHandlerContext) {
        timer = nil
        expired = true
        context.endGRPCStream(
            with: WireStatus(.deadlineExceeded, "Deadline exceeded"), responseStarted: responseStarted)
    }

    /// The time a `grpc-timeout` value allows: up to 8 digits and a unit (`H`, `M`, `S`, `m`,
    /// `u`, `n`), at most `longest`; nil when the value is malformed (grpc-swift then reads the
    /// header as it would).
    static func timeout(_ value: String) -> TimeAmount? {
        let digits = value.utf8.dropLast()
        guard let unit = value.utf8.last, (1...8).contains(digits.count),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        let amount = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        let nanosecondsPerUnit: Int64
        switch unit {
        case UInt8(ascii: "H"): nanosecondsPerUnit = 3_600_000_000_000
        case UInt8(ascii: "M"): nanosecondsPerUnit = 60_000_000_000
        case UInt8(ascii: "S"): nanosecondsPerUnit = 1_000_000_000
        case UInt8(ascii: "m"): nanosecondsPerUnit = 1_000_000
        case UInt8(ascii: "u"): nanosecondsPerUnit = 1_000
        case UInt8(ascii: "n"): nanosecondsPerUnit = 1
        default: return nil
        }
        let (nanoseconds, overflow) = amount.multipliedReportingOverflow(by: nanosecondsPerUnit)
        return overflow ? longest : min(.nanoseconds(nanoseconds), longest)
    }
}
