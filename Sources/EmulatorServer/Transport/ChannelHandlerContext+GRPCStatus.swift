import DocumentModel
import NIOCore
import NIOHPACK
import NIOHTTP2

extension ChannelHandlerContext {
    /// Ends a gRPC stream from a handler below grpc-swift: writes `status` (nil for OK) as a
    /// trailers-only response, or as trailers after the response headers the server sent
    /// already, then closes the stream once they are written (closing earlier could drop
    /// responses still waiting for the client's flow-control window), which ends the call's
    /// handler.
    func endGRPCStream(with status: WireStatus?, responseStarted: Bool) {
        var trailers: HPACKHeaders = responseStarted ? [:] : Self.responseHeaders
        trailers.add(name: "grpc-status", value: String(status?.code.rawValue ?? 0))
        if let status { trailers.add(name: "grpc-message", value: Self.percentEncoded(status.message)) }
        let written = channel.eventLoop.makePromise(of: Void.self)
        writeAndFlush(NIOAny(HTTP2Frame.FramePayload.headers(.init(headers: trailers, endStream: true))), promise: written)
        let channel = self.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    /// The headers that start a gRPC response.
    static var responseHeaders: HPACKHeaders { [":status": "200", "content-type": "application/grpc"] }

    /// `grpc-message`'s encoding: printable ASCII but `%` as is, every other byte as `%XX`.
    private static func percentEncoded(_ text: String) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in text.utf8 {
            if byte >= 0x20, byte <= 0x7E, byte != UInt8(ascii: "%") {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
