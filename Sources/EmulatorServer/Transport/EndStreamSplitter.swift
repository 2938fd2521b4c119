import NIOCore

/// Rewrites a client's HTTP/2 HEADERS frame that ends its stream (`END_STREAM`) into the same
/// HEADERS without the flag followed by an empty DATA frame that carries it.
///
/// Both forms mean the same in HTTP/2, but grpc-swift's server transport never ends a call's
/// request messages when the flag comes on HEADERS, so a unary call half-closed without a
/// message (curl's or a raw client's form) would wait forever for one; with the flag on DATA
/// it answers INTERNAL `Empty stream.` at once, as Google's emulator answers.
///
/// Sits between the `ProtocolGate` and the HTTP/2 handler, on bytes: it reads only frame
/// headers (9 bytes each) and passes payloads through untouched, so the HPACK state is never
/// disturbed. Bytes are forwarded as slices of what was read, split only where a DATA frame is
/// inserted; a frame header cut by the end of a read is held until its last byte arrives.
final class EndStreamSplitter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private static let headerLength = 9
    private static let headersType: UInt8 = 0x1
    private static let continuationType: UInt8 = 0x9
    private static let endStreamFlag: UInt8 = 0x1
    private static let endHeadersFlag: UInt8 = 0x4

    /// Bytes of the client preface still to pass before the first frame.
    private var prefaceRemaining = ProtocolGate.http2Preface.count
    /// Payload bytes of the current frame still to pass.
    private var payloadRemaining = 0
    /// The first bytes of a frame header cut by the end of a read.
    private var partialHeader: [UInt8] = []
    /// The stream whose END_STREAM moves to a DATA frame once its header block ends.
    private var endStreamAfterHeaderBlock: UInt32?
    /// The stream that gets its END_STREAM DATA frame when the current frame's payload ends.
    private var endStreamAfterFrame: UInt32?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var input = unwrapInboundIn(data)
        var runStart = input.readerIndex
        var position = input.readerIndex
        let end = input.writerIndex

        func forwardRun(upTo index: Int) {
            if index > runStart, let run = input.getSlice(at: runStart, length: index - runStart) {
                context.fireChannelRead(wrapInboundOut(run))
            }
            runStart = index
        }

        while position < end {
            if prefaceRemaining > 0 {
                let count = min(prefaceRemaining, end - position)
                prefaceRemaining -= count
                position += count
            } else if payloadRemaining > 0 {
                let count = min(payloadRemaining, end - position)
                payloadRemaining -= count
                position += count
                if payloadRemaining == 0 { insertEndStreamIfDue(upTo: position, forwardRun: forwardRun, context) }
            } else if !partialHeader.isEmpty || end - position < Self.headerLength {
                // A header cut by a read: held, completed from this read, forwarded on its own.
                forwardRun(upTo: position)
                let count = min(Self.headerLength - partialHeader.count, end - position)
                partialHeader += input.getBytes(at: position, length: count) ?? []
                position += count
                runStart = position
                guard partialHeader.count == Self.headerLength else { break }
                var header = ByteBuffer(bytes: partialHeader)
                partialHeader = []
                inspectHeader(in: &header, at: 0)
                context.fireChannelRead(wrapInboundOut(header))
                if payloadRemaining == 0 { insertEndStreamIfDue(upTo: position, forwardRun: forwardRun, context) }
            } else {
                inspectHeader(in: &input, at: position)
                position += Self.headerLength
                if payloadRemaining == 0 { insertEndStreamIfDue(upTo: position, forwardRun: forwardRun, context) }
            }
        }
        forwardRun(upTo: position)
    }

    /// Reads the frame header at `index`, clearing a HEADERS frame's END_STREAM flag (in place)
    /// and noting where the DATA frame that carries it goes.
    private func inspectHeader(in bytes: inout ByteBuffer, at index: Int) {
        let length = (0..<3).reduce(0) { $0 << 8 | Int(bytes.getInteger(at: index + $1, as: UInt8.self) ?? 0) }
        let type = bytes.getInteger(at: index + 3, as: UInt8.self) ?? 0
        let flags = bytes.getInteger(at: index + 4, as: UInt8.self) ?? 0
        let stream = (bytes.getInteger(at: index + 5, as: UInt32.self) ?? 0) & 0x7FFF_FFFF
        payloadRemaining = length
        if type == Self.headersType, flags & Self.endStreamFlag != 0 {
            bytes.setInteger(flags & ~Self.endStreamFlag, at: index + 4)
            endStreamAfterHeaderBlock = stream
        }
        if type == Self.headersType || type == Self.continuationType, flags & Self.endHeadersFlag != 0,
            endStreamAfterHeaderBlock == stream
        {
            endStreamAfterFrame = stream
            endStreamAfterHeaderBlock = nil
        }
    }

    /// At the end of a frame that ends a header block whose stream ended: forwards what came
    /// before, then an empty DATA frame with END_STREAM.
    private func insertEndStreamIfDue(
        upTo position: Int, forwardRun: (Int) -> Void, _ context: ChannelHandlerContext
    ) {
        guard let stream = endStreamAfterFrame else { return }
        endStreamAfterFrame = nil
        forwardRun(position)
        var data = context.channel.allocator.buffer(capacity: Self.headerLength)
        data.writeBytes([0, 0, 0, 0x0, Self.endStreamFlag])
        data.writeInteger(stream)
        context.fireChannelRead(wrapInboundOut(data))
    }
}
