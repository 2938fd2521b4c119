import NIOCore

/// Writes the server's stream limit into the first SETTINGS frame it sends, in place of the
/// one swift-nio-http2 enforces (`EmulatorServer.transportStreamLimit`, far higher, because
/// swift-nio-http2 closes the whole connection when a client passes its limit): clients read
/// `announcedLimit`, and the `ClientFrameRewriter` refuses a stream over it alone.
///
/// Sits between the `ProtocolGate` and the HTTP/2 handler from the connection's start, on the
/// bytes the server writes; swift-nio-http2 writes each frame whole, and its SETTINGS first.
/// After that frame it passes everything through untouched.
final class StreamLimitAnnouncer: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private static let settingsType: UInt8 = 0x4
    private static let ackFlag: UInt8 = 0x1
    private static let maxConcurrentStreams: UInt16 = 0x3

    private let announcedLimit: UInt32
    private var announced = false

    init(announcedLimit: Int) {
        self.announcedLimit = UInt32(clamping: announcedLimit)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !announced, case .byteBuffer(var bytes) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        announced = rewriteSettings(in: &bytes)
        context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
    }

    /// Rewrites the stream limit in the first non-ACK SETTINGS frame among the whole frames in
    /// `bytes`: whether there was one.
    private func rewriteSettings(in bytes: inout ByteBuffer) -> Bool {
        var offset = bytes.readerIndex
        while let header = bytes.getBytes(at: offset, length: 9) {
            let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
            if header[3] == Self.settingsType, header[4] & Self.ackFlag == 0 {
                for entry in stride(from: offset + 9, to: offset + 9 + length - 5, by: 6)
                where bytes.getInteger(at: entry, as: UInt16.self) == Self.maxConcurrentStreams {
                    bytes.setInteger(announcedLimit, at: entry + 2)
                }
                return true
            }
            offset += 9 + length
        }
        return false
    }
}
