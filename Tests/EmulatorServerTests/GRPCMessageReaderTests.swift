import NIOCore
import Testing

@testable import EmulatorServer

/// `GRPCMessageReader` cuts a Listen stream's request bytes into messages, however HTTP/2 DATA
/// frames split them.
@Suite struct GRPCMessageReaderTests {
    @Test("messages split across reads, several in one read, and empty ones come out whole and in order")
    func cutsMessages() {
        let messages: [[UInt8]] = [Array(1...9), [], Array(repeating: 7, count: 300), [42]]
        let stream = messages.flatMap(RawHTTP2.grpcMessage)
        for chunkSize in [1, 2, 5, 6, 64, stream.count] {
            var reader = GRPCMessageReader()
            var read: [[UInt8]] = []
            var offset = 0
            while offset < stream.count {
                let end = min(offset + chunkSize, stream.count)
                reader.append(ByteBuffer(bytes: stream[offset..<end]))
                offset = end
                while let message = reader.next() { read.append(Array(message.readableBytesView)) }
            }
            #expect(read == messages, "chunks of \(chunkSize)")
            #expect(!reader.isInsideMessage)
        }
    }

    @Test("bytes that end inside a message or its prefix leave the reader inside a message")
    func partialMessage() {
        var reader = GRPCMessageReader()
        reader.append(ByteBuffer(bytes: RawHTTP2.grpcMessage([1, 2, 3]).prefix(6)))
        #expect(reader.next() == nil)
        #expect(reader.isInsideMessage)
        var prefixOnly = GRPCMessageReader()
        prefixOnly.append(ByteBuffer(bytes: [0, 0, 0]))
        #expect(prefixOnly.next() == nil)
        #expect(prefixOnly.isInsideMessage)
    }
}
