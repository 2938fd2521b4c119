import NIOCore
import NIOHTTP2

/// Rewrites two kinds of HTTP/2 frames a client sends, on bytes, before swift-nio-http2 reads
/// them:
///
/// - **A HEADERS frame that ends its stream** (`END_STREAM`) becomes the same HEADERS without
///   the flag followed by an empty DATA frame that carries it. Both mean the same in HTTP/2,
///   but grpc-swift's server transport never ends a call's request messages when the flag comes
///   on HEADERS, so a unary call half-closed without a message (curl's or a raw client's form)
///   would wait forever for one; with the flag on DATA it answers INTERNAL `Empty stream.` at
///   once, as Google's emulator answers.
/// - **A client's RST_STREAM** never reaches swift-nio-http2, which counts every reset it
///   receives and closes the whole connection with GOAWAY ENHANCE_YOUR_CALM after 200 in 30
///   seconds (a defence against rapid-reset floods that the transport doesn't let us
///   configure); clients reset the streams of listeners they remove and of calls they abandon,
///   so a test suite that removed a few hundred listeners on one connection lost every call in
///   flight. Instead:
///   - a stream the client has not half-closed (a Listen or Write stream) gets an empty DATA
///     frame with END_STREAM, the client's half close: its session ends and answers with its
///     trailers, so it closes without a reset from either side (swift-nio-http2 clients count
///     the resets servers send too). The client ignores what the server still sends on it.
///     Should it not close within 2 seconds (its flow-control window is exhausted), its
///     channel is closed, which resets it;
///   - a stream the client has half-closed (a call still being answered) has its channel
///     closed, which cancels the call and resets the stream;
///   - a reset of a stream that is closed already is dropped, as HTTP/2 would ignore it.
///   A reset of a stream not opened yet (its HEADERS in the same read) passes unchanged.
///
/// Sits between the `ProtocolGate` and the HTTP/2 handler. It reads only frame headers (9
/// bytes each) and passes payloads through untouched, so the HPACK state is never disturbed.
/// Bytes are forwarded as slices of what was read, split only where a DATA frame is inserted
/// or a stream is closed; a frame header cut by the end of a read is held until its last byte
/// arrives. Streams register as they are accepted (`register(_:)`); everything runs on the
/// connection's event loop.
final class ClientFrameRewriter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private static let headerLength = 9
    private static let headersType: UInt8 = 0x1
    private static let dataType: UInt8 = 0x0
    private static let resetType: UInt8 = 0x3
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
    /// Payload bytes of the current frame (a rewritten reset's) to drop rather than pass.
    private var dropsPayload = false
    /// The channels of the streams being served, by stream id.
    private var streams: [UInt32: any Channel] = [:]
    /// The streams the client has half-closed (sent END_STREAM on), until they close.
    private var halfClosedByClient: Set<UInt32> = []
    /// The highest stream id registered: a reset of a lower one not in `streams` is for a
    /// stream closed already.
    private var highestRegistered: UInt32 = 0

    /// Records an accepted stream's channel, until it closes, so that a client's reset of the
    /// stream half-closes it; false, recording nothing, when `limit` streams are open already
    /// (the stream is to be refused). Call on the connection's event loop.
    func register(_ stream: any Channel, limit: Int) -> Bool {
        guard let id = try? stream.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) else { return true }
        let number = UInt32(Int(id))
        guard streams.count < limit else {
            halfClosedByClient.remove(number)
            return false
        }
        streams[number] = stream
        highestRegistered = max(highestRegistered, number)
        stream.closeFuture.whenComplete { [self] _ in
            streams[number] = nil
            halfClosedByClient.remove(number)
        }
        return true
    }

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
                if dropsPayload { forwardRun(upTo: position) }
                payloadRemaining -= count
                position += count
                if dropsPayload { runStart = position }
                if payloadRemaining == 0 { endOfFrame(upTo: position, forwardRun: forwardRun, context) }
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
                if let reset = inspectHeader(in: &header, at: 0) {
                    handle(reset, context)
                } else {
                    context.fireChannelRead(wrapInboundOut(header))
                }
                if payloadRemaining == 0 { endOfFrame(upTo: position, forwardRun: forwardRun, context) }
            } else {
                if let reset = inspectHeader(in: &input, at: position) {
                    forwardRun(upTo: position)
                    handle(reset, context)
                    runStart = position + Self.headerLength
                }
                position += Self.headerLength
                if payloadRemaining == 0 { endOfFrame(upTo: position, forwardRun: forwardRun, context) }
            }
        }
        forwardRun(upTo: position)
    }

    /// Reads the frame header at `index`. A HEADERS frame's END_STREAM flag is cleared (in
    /// place), noting where the DATA frame that carries it goes. A client's reset of a stream
    /// opened already is returned: the caller drops the frame and handles the reset.
    private func inspectHeader(in bytes: inout ByteBuffer, at index: Int) -> UInt32? {
        let length = (0..<3).reduce(0) { $0 << 8 | Int(bytes.getInteger(at: index + $1, as: UInt8.self) ?? 0) }
        let type = bytes.getInteger(at: index + 3, as: UInt8.self) ?? 0
        let flags = bytes.getInteger(at: index + 4, as: UInt8.self) ?? 0
        let stream = (bytes.getInteger(at: index + 5, as: UInt32.self) ?? 0) & 0x7FFF_FFFF
        payloadRemaining = length
        if type == Self.resetType, length == 4, stream != 0, stream <= highestRegistered {
            dropsPayload = true
            return stream
        }
        // Recorded before the stream registers too: its HEADERS often come in the same read,
        // and reach swift-nio-http2 (which opens the stream) only after this read is inspected.
        if type == Self.dataType, flags & Self.endStreamFlag != 0 {
            halfClosedByClient.insert(stream)
        }
        if type == Self.headersType, flags & Self.endStreamFlag != 0 {
            bytes.setInteger(flags & ~Self.endStreamFlag, at: index + 4)
            endStreamAfterHeaderBlock = stream
            halfClosedByClient.insert(stream)
        }
        if type == Self.headersType || type == Self.continuationType, flags & Self.endHeadersFlag != 0,
            endStreamAfterHeaderBlock == stream
        {
            endStreamAfterFrame = stream
            endStreamAfterHeaderBlock = nil
        }
        return nil
    }

    /// Ends `stream`, which the client reset: half-closes it for the client, closing its
    /// channel (resetting it) if it is still open 2 seconds later, or closes its channel now if
    /// the client had half-closed it; nothing if it is closed already.
    private func handle(_ reset: UInt32, _ context: ChannelHandlerContext) {
        guard let channel = streams[reset] else { return }
        guard halfClosedByClient.insert(reset).inserted else {
            channel.close(promise: nil)
            return
        }
        context.fireChannelRead(wrapInboundOut(endStreamFrame(reset, context)))
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }

    /// At the end of a frame: stops dropping payload, and after a frame that ends a header
    /// block whose stream ended, forwards what came before, then an empty DATA frame with
    /// END_STREAM.
    private func endOfFrame(upTo position: Int, forwardRun: (Int) -> Void, _ context: ChannelHandlerContext) {
        dropsPayload = false
        guard let stream = endStreamAfterFrame else { return }
        endStreamAfterFrame = nil
        forwardRun(position)
        context.fireChannelRead(wrapInboundOut(endStreamFrame(stream, context)))
    }

    /// An empty DATA frame with END_STREAM for `stream`.
    private func endStreamFrame(_ stream: UInt32, _ context: ChannelHandlerContext) -> ByteBuffer {
        var data = context.channel.allocator.buffer(capacity: Self.headerLength)
        data.writeBytes([0, 0, 0, Self.dataType, Self.endStreamFlag])
        data.writeInteger(stream)
        return data
    }
}
