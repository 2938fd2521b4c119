import DocumentModel
import FirestoreProto
import Foundation
import GRPCCore
import Synchronization
import Testing

@testable import EmulatorServer

/// Many streams on one HTTP/2 connection, as the SDKs multiplex all of an app's traffic, and
/// a unary call that sends no message. Serialized: the many-stream tests are heavy on two cores.
@Suite(.serialized) struct GRPCConnectionTests {
    private let owner = TestServer.owner
    static let listenCount = 1000
    static let unaryCount = 2000

    @Test("1,000 Listen streams share one connection, each current and then told of a change")
    func thousandListenStreamsOnOneConnection() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(Proto.commit([Proto.update("many/doc", ["n": 1])]), metadata: owner)
            let current = Counter()
            let changed = Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<Self.listenCount {
                    group.addTask {
                        try await server.listen { call in
                            call.send(Watch.documents(Int32(index + 1), ["many/doc"]))
                            _ = try await call.responses(through: Watch.isConsistentPoint)
                            current.increment()
                            let change = try await call.responses(through: Watch.isConsistentPoint)
                            if change.contains(where: { $0.documentChange.document.fields["n"] == Value.integer(2).proto }) {
                                changed.increment()
                            }
                        }
                    }
                }
                let deadline = ContinuousClock.now + .seconds(120)
                while current.value < Self.listenCount, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                try #require(current.value == Self.listenCount)
                _ = try await server.grpc.commit(Proto.commit([Proto.update("many/doc", ["n": 2])]), metadata: owner)
                try await group.waitForAll()
            }
            #expect(changed.value == Self.listenCount)
        }
    }

    @Test("2,000 concurrent unary calls share one connection without an error")
    func twoThousandConcurrentCallsOnOneConnection() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(Proto.commit([Proto.update("many/doc", ["n": 1])]), metadata: owner)
            let get = Google_Firestore_V1_GetDocumentRequest.with { $0.name = TestServer.name("many/doc") }
            try await withThrowingTaskGroup(of: Void.self) { calls in
                for _ in 0..<Self.unaryCount {
                    calls.addTask {
                        let document = try await server.grpc.getDocument(get, metadata: owner)
                        #expect(document.fields["n"] == Value.integer(1).proto)
                    }
                }
                try await calls.waitForAll()
            }
        }
    }

    @Test("A unary call half-closed without a request message gets INTERNAL at once")
    func unaryCallWithoutMessage() async throws {
        try await TestServer.run { server in
            let outcome = try await withThrowingTaskGroup(of: RPCError?.self) { group in
                group.addTask {
                    do {
                        try await server.rawGRPC.clientStreaming(
                            request: StreamingClientRequest<[UInt8]>(metadata: owner) { _ in },
                            descriptor: Google_Firestore_V1_Firestore.Method.GetDocument.descriptor,
                            serializer: BytesSerializer(), deserializer: BytesSerializer(), options: .defaults
                        ) { _ = try $0.message }
                        return nil
                    } catch let error as RPCError {
                        return error
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(30))
                    throw CancellationError()
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(outcome?.code == .internalError, "\(String(describing: outcome))")
        }
    }

    @Test("A unary call whose HEADERS frame ends the stream gets its status at once")
    func unaryCallEndedOnHeaders() async throws {
        try await TestServer.run { server in
            var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
            bytes += RawHTTP2.frame(type: 0x4, flags: 0, stream: 0, payload: [])  // SETTINGS
            let block = RawHTTP2.headerBlock([
                (":method", "POST"), (":scheme", "http"), (":path", "/google.firestore.v1.Firestore/GetDocument"),
                (":authority", "\(server.address)"), ("content-type", "application/grpc"), ("te", "trailers"),
                ("authorization", "Bearer owner"),
            ])
            bytes += RawHTTP2.frame(type: 0x1, flags: 0x5, stream: 1, payload: block)  // END_STREAM | END_HEADERS
            let received = try await server.http.exchange(bytes, timeout: 30) { RawHTTP2.endsStream(1, in: $0) }
            #expect(RawHTTP2.endsStream(1, in: received))
        }
    }
}

/// A count shared by concurrent tasks.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() { count.add(1, ordering: .relaxed) }
}
