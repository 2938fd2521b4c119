import DocumentModel
import FirestoreProto
import FirestoreWire
import Foundation
import GRPCCore
import Testing

@testable import EmulatorServer

/// The mobile SDKs' `Write` stream against a live server: the handshake, stream tokens, write
/// results, closing, and the errors of Google's emulator.
@Suite struct GRPCWriteStreamTests {
    private static func handshake() -> Google_Firestore_V1_WriteRequest {
        var request = Google_Firestore_V1_WriteRequest()
        request.database = TestServer.database
        return request
    }

    private static func writes(
        _ writes: [Google_Firestore_V1_Write], token: Data
    ) -> Google_Firestore_V1_WriteRequest {
        var request = Google_Firestore_V1_WriteRequest()
        request.streamToken = token
        request.writes = writes
        return request
    }

    @Test func handshakeThenAtomicWritesWithResultsThenClose() async throws {
        try await TestServer.run { server in
            try await server.writeStream { call in
                call.send(Self.handshake())
                let opened = try #require(try await call.next())
                #expect(!opened.streamID.isEmpty)
                #expect(opened.streamToken == Data("0".utf8))
                #expect(opened.writeResults.isEmpty && !opened.hasCommitTime)

                call.send(
                    Self.writes(
                        [
                            Proto.update("c/a", ["n": 1]),
                            Proto.update(
                                "c/b", [:], mask: [],
                                transforms: [Proto.transform("n", .increment(Value.integer(5).proto))]),
                        ], token: opened.streamToken))
                let written = try #require(try await call.next())
                #expect(written.streamToken == Data("1".utf8))
                #expect(written.writeResults.count == 2)
                #expect(written.writeResults.allSatisfy { $0.updateTime == written.commitTime })
                #expect(written.writeResults[1].transformResults == [Value.integer(5).proto])

                call.send(Self.writes([Proto.delete("c/a")], token: written.streamToken))
                #expect(try await call.next()?.streamToken == Data("2".utf8))

                // A request without writes asks to close: answered with a token, then the end.
                call.send(Self.writes([], token: Data("2".utf8)))
                #expect(try await call.next()?.streamToken == Data("3".utf8))
                #expect(try await call.next() == nil)
            }
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("c/b")
            #expect(try Proto.fields(try await server.grpc.getDocument(get, metadata: TestServer.owner)) == ["n": 5])
            #expect(
                await rpcError {
                    get.name = TestServer.name("c/a")
                    return try await server.grpc.getDocument(get, metadata: TestServer.owner)
                }?.code == .notFound)
            let entries = try await server.waitForLogEntries("Write", count: 1)
            #expect(entries.map(\.path) == [TestServer.database])
            // The stream's one entry lists the documents its writes named, in order.
            #expect(entries.first?.documents == ["c/a", "c/b", "c/a"].map { TestServer.name($0) })
            #expect(entries.first?.documentCount == 3)
        }
    }

    @Test func malformedHandshakesAreRefusedWithGooglesMessages() async throws {
        try await TestServer.run { server in
            var withWrites = Self.handshake()
            withWrites.writes = [Proto.update("c/a", ["n": 1])]
            var withToken = Self.handshake()
            withToken.streamToken = Data("0".utf8)
            var withStreamID = Self.handshake()
            withStreamID.streamID = "abc"
            let cases: [(Google_Firestore_V1_WriteRequest, String)] = [
                (withWrites, "'writes' must not be set on an initial write request."),
                (
                    withToken,
                    "Resuming streams is not supported, 'stream_token' must not be set on an initial write request."
                ),
                (withStreamID, "Resuming streams is not supported, do not set stream ID."),
                (Google_Firestore_V1_WriteRequest(), "'database' must be set on an initial write request."),
            ]
            for (request, message) in cases {
                let failure = await rpcError {
                    try await server.writeStream { call in
                        call.send(request)
                        while try await call.next() != nil {}
                    }
                }
                #expect(failure?.code == .invalidArgument)
                #expect(failure?.message == message)
            }
            #expect(server.server.store.lastCommitTime == nil)
        }
    }

    @Test func writeWithATokenThisStreamDidNotIssueIsRefused() async throws {
        try await TestServer.run { server in
            for token in [Data(), Data("7".utf8), Data("bogus".utf8)] {
                let failure = await rpcError {
                    try await server.writeStream { call in
                        call.send(Self.handshake())
                        _ = try await call.next()
                        call.send(Self.writes([Proto.update("c/a", ["n": 1])], token: token))
                        while try await call.next() != nil {}
                    }
                }
                #expect(failure?.code == .invalidArgument, "\(token)")
            }
            #expect(server.server.store.lastCommitTime == nil)
        }
    }

    @Test func failedWriteEndsTheStreamWithItsStatusAndWritesNothing() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(Proto.commit([Proto.update("c/a", ["n": 1])]), metadata: TestServer.owner)
            let failure = await rpcError {
                try await server.writeStream { call in
                    call.send(Self.handshake())
                    let token = try await call.next()!.streamToken
                    call.send(
                        Self.writes(
                            [Proto.update("c/b", ["n": 2]), Proto.update("c/a", ["n": 3], exists: false)], token: token)
                    )
                    while try await call.next() != nil {}
                }
            }
            #expect(failure?.code == .alreadyExists)
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("c/b")
            #expect(
                await rpcError { try await server.grpc.getDocument(get, metadata: TestServer.owner) }?.code == .notFound
            )
        }
    }

    @Test func serverShutdownEndsAnIdleStreamWithUnavailable() async throws {
        try await TestServer.run { server in
            let failure = await rpcError {
                try await server.writeStream { call in
                    call.send(Self.handshake())
                    _ = try await call.next()
                    server.server.beginGracefulShutdown()
                    while try await call.next() != nil {}
                }
            }
            #expect(failure?.code == .unavailable)
        }
    }
}
