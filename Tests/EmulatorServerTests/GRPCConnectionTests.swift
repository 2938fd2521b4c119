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

    @Test("A stream over the announced limit is refused alone (REFUSED_STREAM); the connection goes on")
    func streamOverTheLimitIsRefused() async throws {
        try await TestServer.run(maxConcurrentStreams: 10) { server in
            // 11 Listen streams opened (HEADERS only, so each stays open), then a PING.
            var bytes = RawHTTP2.opening("Listen", stream: 1, authority: "\(server.address)")
            for index in 1...10 {
                let block = RawHTTP2.headerBlock([
                    (":method", "POST"), (":scheme", "http"), (":path", "/google.firestore.v1.Firestore/Listen"),
                    (":authority", "\(server.address)"), ("content-type", "application/grpc"), ("te", "trailers"),
                ])
                bytes += RawHTTP2.frame(type: 0x1, flags: 0x4, stream: UInt32(1 + 2 * index), payload: block)
            }
            bytes += RawHTTP2.frame(type: 0x6, flags: 0, stream: 0, payload: Array(repeating: 7, count: 8))  // PING
            let received = try await server.http.exchange(bytes, timeout: 30) { received in
                RawHTTP2.frames(in: received).contains { $0.type == 0x6 && $0.flags & 0x1 != 0 }
            }
            let frames = RawHTTP2.frames(in: received)
            let settings = try #require(frames.first { $0.type == 0x4 && $0.flags & 0x1 == 0 })
            let announced = stride(from: 0, to: settings.payload.count, by: 6).compactMap { entry -> UInt32? in
                guard settings.payload[entry + 1] == 0x3 else { return nil }
                return settings.payload[entry + 2...entry + 5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            }
            #expect(announced == [10])
            let resets = frames.filter { $0.type == 0x3 }
            #expect(resets.map(\.stream) == [21])
            #expect(resets.first?.payload == [0, 0, 0, 7])  // REFUSED_STREAM
            #expect(!frames.contains { $0.type == 0x7 })  // no GOAWAY
        }
    }

    @Test("250 resets of calls still being answered, and 250 of calls already answered, leave the connection working")
    func resetsOfHalfClosedCallsKeepTheConnection() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(Proto.commit([Proto.update("locked/doc", ["n": 1])]), metadata: owner)
            // A transaction reads the document: a commit that changes it waits for the lock.
            var begin = Google_Firestore_V1_BeginTransactionRequest()
            begin.database = TestServer.database
            let transaction = try await server.grpc.beginTransaction(begin, metadata: owner).transaction
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("locked/doc")
            get.transaction = transaction
            _ = try await server.grpc.getDocument(get, metadata: owner)

            let commit = RawHTTP2.grpcMessage(try Proto.commit([Proto.update("locked/doc", ["n": 2])]).serializedBytes())
            let read = RawHTTP2.grpcMessage(
                try Google_Firestore_V1_GetDocumentRequest.with { $0.name = TestServer.name("free/doc") }.serializedBytes())
            // 250 commits sent whole (HEADERS and DATA with END_STREAM), waiting for the lock,
            // and 250 reads, answered at once; then, while the commits wait, the client resets
            // all 500 and pings.
            // The server's SETTINGS acknowledged first: swift-nio-http2 allows 100 streams before.
            var calls = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
                + RawHTTP2.frame(type: 0x4, flags: 0, stream: 0, payload: [])
                + RawHTTP2.frame(type: 0x4, flags: 0x1, stream: 0, payload: [])
            let headers = { (method: String) in
                RawHTTP2.headerBlock([
                    (":method", "POST"), (":scheme", "http"), (":path", "/google.firestore.v1.Firestore/\(method)"),
                    (":authority", "\(server.address)"), ("content-type", "application/grpc"), ("te", "trailers"),
                    ("authorization", "Bearer owner"),
                ])
            }
            var resets: [UInt8] = []
            for index in 0..<500 {
                let stream = UInt32(1 + 2 * index)
                let isCommit = index < 250
                calls += RawHTTP2.frame(type: 0x1, flags: 0x4, stream: stream, payload: headers(isCommit ? "Commit" : "GetDocument"))
                calls += RawHTTP2.frame(type: 0x0, flags: 0x1, stream: stream, payload: isCommit ? commit : read)
                resets += RawHTTP2.frame(type: 0x3, flags: 0, stream: stream, payload: [0, 0, 0, 8])  // CANCEL
            }
            resets += RawHTTP2.frame(type: 0x6, flags: 0, stream: 0, payload: Array(repeating: 1, count: 8))
            let received = try await server.http.exchange(calls, thenAfter: .milliseconds(500), send: resets, timeout: 30) {
                RawHTTP2.frames(in: $0).contains { $0.type == 0x6 && $0.flags & 0x1 != 0 }
            }
            let goAway = RawHTTP2.frames(in: received).first { $0.type == 0x7 }
            #expect(goAway == nil, "GOAWAY \(goAway.map { String(decoding: $0.payload.dropFirst(8), as: UTF8.self) + " \($0.payload[4..<8])" } ?? "")")
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

    @Test("At shutdown, a Listen stream whose client stopped reading is reset instead of holding the server up")
    func shutdownResetsAListenStreamNobodyReads() async throws {
        try await TestServer.run { server in
            let opening = RawHTTP2.grpcMessage(try Watch.documents(1, ["a/b"]).serializedBytes())
            // A stream flow-control window of 1 byte, never updated: the server's first responses
            // wait for a client that does not read them.
            let bytes = RawHTTP2.opening("Listen", stream: 1, authority: "\(server.address)")
                + RawHTTP2.frame(type: 0x4, flags: 0, stream: 0, payload: [0, 0x4, 0, 0, 0, 1])  // INITIAL_WINDOW_SIZE 1
                + RawHTTP2.frame(type: 0x0, flags: 0, stream: 1, payload: opening)
            async let received = server.http.exchange(bytes, timeout: 30) { bytes in
                RawHTTP2.frames(in: bytes).contains { $0.type == 0x3 && $0.stream == 1 }  // RST_STREAM
            }
            try await Task.sleep(for: .milliseconds(500))
            server.server.beginGracefulShutdown()
            let frames = RawHTTP2.frames(in: try await received)
            #expect(frames.contains { $0.type == 0x3 && $0.stream == 1 })
        }
    }
}

/// A count shared by concurrent tasks.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() { count.add(1, ordering: .relaxed) }
}
