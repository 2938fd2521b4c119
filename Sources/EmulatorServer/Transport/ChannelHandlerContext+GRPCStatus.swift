import DocumentModel
import NIOCore
import NIOHPACK
import NIOHTTP2

extension ChannelHandlerContext {
    /// Ends a gRPC stream from a handler below grpc-swift: writes `status` (as a trailers-only
    /// response, or as trailers after the response headers the server sent already), then
    /// closes the stream, which ends the call's handler.
    func endGRPCStream(with status: WireStatus, responseStarted: Bool) {
        var trailers: HPACKHeaders = responseStarted ? [:] : [":status": "200", "content-type": "application/grpc"]
        trailers.add(name: "grpc-status", value: String(status.code.rawValue))
        trailers.add(name: "grpc-message", value: Self.percentEncoded(status.message))
        writeAndFlush(NIOAny(HTTP2Frame.FramePayload.headers(.init(headers: trailers, endStream: true))), promise: nil)
        close(promise: nil)
    }

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
