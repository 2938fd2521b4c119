import FirestoreProto
import GRPCCore
import Testing

@testable import EmulatorServer

/// Malformed gRPC framing and unreadable messages end their stream with a gRPC status, as
/// Google's emulator answers, never with a bare stream reset or with OK.
@Suite struct GRPCFramingTests {
    private static let garbage: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]

    @Test("A compressed message without a negotiated encoding gets INTERNAL, not a stream reset")
    func compressedMessage() async throws {
        try await TestServer.run { server in
            let message: [UInt8] = [0x0A, 0x00]
            let bytes = RawHTTP2.opening("GetDocument", stream: 1, authority: "\(server.address)")
                + RawHTTP2.frame(type: 0x0, flags: 0x1, stream: 1, payload: [1, 0, 0, 0, 2] + message)
            let received = try await server.http.exchange(bytes, timeout: 30) { RawHTTP2.endsStream(1, in: $0) }
            let trailers = RawHTTP2.trailers(of: 1, in: received)
            #expect(trailers?["grpc-status"] == "13")
            #expect(trailers?["grpc-message"]?.contains("compressed") == true)
        }
    }

    @Test("A 4 GiB length prefix on an open Listen stream gets INVALID_ARGUMENT naming the size")
    func hugeLengthPrefix() async throws {
        try await TestServer.run { server in
            let bytes = RawHTTP2.opening("Listen", stream: 1, authority: "\(server.address)")
                + RawHTTP2.frame(type: 0x0, flags: 0, stream: 1, payload: [0, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3])
            let received = try await server.http.exchange(bytes, timeout: 30) { RawHTTP2.endsStream(1, in: $0) }
            let trailers = RawHTTP2.trailers(of: 1, in: received)
            #expect(trailers?["grpc-status"] == "3")
            #expect(trailers?["grpc-message"]?.contains("4294967295 bytes") == true)
        }
    }

    @Test("An unreadable first message on a Listen or Write stream ends it with INVALID_ARGUMENT",
          arguments: ["Listen", "Write"])
    func unreadableOpening(method: String) async throws {
        try await TestServer.run { server in
            let error = await Self.bidirectionalFailure(server, method, [Self.garbage])
            #expect(error?.code == .invalidArgument, "\(String(describing: error))")
        }
    }

    @Test("An unreadable message after a valid opening ends the Listen stream with INVALID_ARGUMENT")
    func unreadableLaterMessage() async throws {
        try await TestServer.run { server in
            let opening: [UInt8] = try Watch.documents(1, ["a/b"]).serializedBytes()
            let error = await Self.bidirectionalFailure(server, "Listen", [opening, Self.garbage])
            #expect(error?.code == .invalidArgument, "\(String(describing: error))")
        }
    }

    @Test("A Listen stream half-closed inside a message ends with INVALID_ARGUMENT")
    func halfClosedInsideAMessage() async throws {
        try await TestServer.run { server in
            let opening = RawHTTP2.grpcMessage(try Watch.documents(1, ["a/b"]).serializedBytes())
            // The whole opening request, then the first 3 bytes of a 10-byte message and END_STREAM.
            let bytes = RawHTTP2.opening("Listen", stream: 1, authority: "\(server.address)")
                + RawHTTP2.frame(type: 0x0, flags: 0, stream: 1, payload: opening)
                + RawHTTP2.frame(type: 0x0, flags: 0x1, stream: 1, payload: [0, 0, 0, 0, 10, 1, 2, 3])
            let received = try await server.http.exchange(bytes, timeout: 30) { RawHTTP2.endsStream(1, in: $0) }
            let trailers = RawHTTP2.trailers(of: 1, in: received)
            #expect(trailers?["grpc-status"] == "3")
            #expect(trailers?["grpc-message"]?.contains("ended inside a message") == true)
        }
    }

    /// Sends `messages` as raw bytes on a `method` stream, half-closes and reads the responses:
    /// the error the stream ended with, or nil when it ended OK.
    private static func bidirectionalFailure(_ server: TestServer, _ method: String, _ messages: [[UInt8]]) async -> RPCError? {
        let descriptor = method == "Listen"
            ? Google_Firestore_V1_Firestore.Method.Listen.descriptor
            : Google_Firestore_V1_Firestore.Method.Write.descriptor
        do {
            try await server.rawGRPC.bidirectionalStreaming(
                request: StreamingClientRequest<[UInt8]>(metadata: TestServer.owner) { writer in
                    for message in messages { try await writer.write(message) }
                },
                descriptor: descriptor, serializer: BytesSerializer(), deserializer: BytesSerializer(),
                options: .defaults
            ) { response in
                for try await _ in response.messages {}
            }
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            return RPCError(code: .unknown, message: "\(error)")
        }
    }
}
