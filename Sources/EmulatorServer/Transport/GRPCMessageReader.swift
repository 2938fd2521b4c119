import NIOCore

/// Cuts a gRPC stream's request bytes into messages: each is a 5-byte prefix (a compressed flag
/// and a 32-bit length) and that many bytes. The `GRPCFramingGuard` before it has refused
/// compressed and oversized messages already.
struct GRPCMessageReader {
    private static let prefixLength = 5

    /// The bytes read and not yet cut into messages; nil when there are none, so that an idle
    /// stream holds no buffer.
    private var pending: ByteBuffer?

    /// Whether the bytes read end inside a message.
    var isInsideMessage: Bool { pending != nil }

    /// Adds the next bytes of the stream.
    mutating func append(_ bytes: ByteBuffer) {
        guard bytes.readableBytes > 0 else { return }
        if pending == nil {
            pending = bytes
        } else {
            pending!.writeImmutableBuffer(bytes)
        }
    }

    /// The next whole message's bytes, or nil until its last byte has arrived.
    mutating func next() -> ByteBuffer? {
        guard let buffer = pending, buffer.readableBytes >= Self.prefixLength,
            let length = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt32.self),
            buffer.readableBytes - Self.prefixLength >= Int(length)
        else { return nil }
        let message = buffer.getSlice(at: buffer.readerIndex + Self.prefixLength, length: Int(length))
        let consumed = Self.prefixLength + Int(length)
        if consumed == buffer.readableBytes {
            pending = nil
        } else {
            pending!.moveReaderIndex(forwardBy: consumed)
        }
        return message
    }
}
