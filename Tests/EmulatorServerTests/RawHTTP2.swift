import NIOCore
import NIOHPACK

/// Hand-made HTTP/2 frames, for requests no client library sends.
enum RawHTTP2 {
    /// A gRPC message: an uncompressed flag, 4 bytes of length, the message's bytes.
    static func grpcMessage(_ bytes: [UInt8]) -> [UInt8] {
        [0] + withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { Array($0) } + bytes
    }

    /// A frame: 3 bytes of length, type, flags, the stream id, the payload.
    static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + withUnsafeBytes(of: stream.bigEndian) { Array($0) } + payload
    }

    /// An HPACK header block of literal fields without indexing or Huffman coding.
    static func headerBlock(_ fields: [(String, String)]) -> [UInt8] {
        fields.flatMap { name, value in [0x00] + string(name) + string(value) }
    }

    private static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        precondition(bytes.count < 127)
        return [UInt8(bytes.count)] + bytes
    }

    /// The client preface, an empty SETTINGS frame and a request's HEADERS frame (without
    /// END_STREAM) for `method` of the Firestore service on `stream`, as the owner, with the
    /// `extra` header fields.
    static func opening(_ method: String, stream: UInt32, authority: String, extra: [(String, String)] = []) -> [UInt8] {
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        bytes += frame(type: 0x4, flags: 0, stream: 0, payload: [])  // SETTINGS
        let block = headerBlock([
            (":method", "POST"), (":scheme", "http"), (":path", "/google.firestore.v1.Firestore/\(method)"),
            (":authority", authority), ("content-type", "application/grpc"), ("te", "trailers"),
            ("authorization", "Bearer owner"),
        ] + extra)
        return bytes + frame(type: 0x1, flags: 0x4, stream: stream, payload: block)  // END_HEADERS
    }

    /// The fields of the server's HEADERS frame that ends `stream` (its trailers), decoded
    /// with the connection's HPACK state; nil if the frames hold none.
    static func trailers(of stream: UInt32, in bytes: [UInt8]) -> [String: String]? {
        var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
        for frame in frames(in: bytes) where frame.type == 0x1 {
            var block = ByteBuffer(bytes: frame.payload)
            guard let fields = try? decoder.decodeHeaders(from: &block) else { return nil }
            if frame.stream == stream, frame.flags & 0x1 != 0 {
                return Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
            }
        }
        return nil
    }

    /// Whether the server's frames hold trailers for `stream`: a HEADERS frame with END_STREAM.
    static func endsStream(_ stream: UInt32, in bytes: [UInt8]) -> Bool {
        frames(in: bytes).contains { $0.stream == stream && $0.type == 0x1 && $0.flags & 0x1 != 0 }
    }

    /// The frames in the server's `bytes`: type, flags, stream and payload of each whole one.
    static func frames(in bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] {
        var frames: [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard offset + 9 + length <= bytes.count else { break }
            let id = bytes[offset + 5..<offset + 9].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            frames.append((bytes[offset + 3], bytes[offset + 4], id, Array(bytes[offset + 9..<offset + 9 + length])))
            offset += 9 + length
        }
        return frames
    }
}
