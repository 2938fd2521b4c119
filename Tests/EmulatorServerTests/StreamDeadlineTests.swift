import FirestoreProto
import Foundation
import GRPCCore
import NIOCore
import Testing

@testable import EmulatorServer

/// A call's deadline (`grpc-timeout`) is kept by the server's `StreamDeadline`, not by a
/// sleeping task of grpc-swift's (whose cancelled sleep leaks on this toolchain).
@Suite struct StreamDeadlineTests {
    @Test("grpc-timeout values: every unit, 8 digits at most, the longest deadline capped")
    func timeoutValues() {
        #expect(StreamDeadline.timeout("2H") == .hours(2))
        #expect(StreamDeadline.timeout("3M") == .minutes(3))
        #expect(StreamDeadline.timeout("59S") == .seconds(59))
        #expect(StreamDeadline.timeout("250m") == .milliseconds(250))
        #expect(StreamDeadline.timeout("7u") == .microseconds(7))
        #expect(StreamDeadline.timeout("99999999n") == .nanoseconds(99_999_999))
        #expect(StreamDeadline.timeout("99999999H") == StreamDeadline.longest)
        for malformed in ["", "S", "123456789S", "10", "10s", "-1S", "1.5S", "１S"] {
            #expect(StreamDeadline.timeout(malformed) == nil, "\(malformed)")
        }
    }

    @Test("a Listen stream still open at its deadline ends with DEADLINE_EXCEEDED, not before")
    func listenEndsAtItsDeadline() async throws {
        try await TestServer.run { server in
            let message = RawHTTP2.grpcMessage(try Watch.documents(1, ["a/b"]).serializedBytes())
            let bytes = RawHTTP2.opening("Listen", stream: 1, authority: "\(server.address)", extra: [("grpc-timeout", "400m")])
                + RawHTTP2.frame(type: 0x0, flags: 0, stream: 1, payload: message)
            let started = ContinuousClock.now
            let received = try await server.http.exchange(bytes, timeout: 30) { RawHTTP2.endsStream(1, in: $0) }
            let elapsed = ContinuousClock.now - started
            let trailers = RawHTTP2.trailers(of: 1, in: received)
            #expect(trailers?["grpc-status"] == "4", "\(String(describing: trailers))")
            #expect(trailers?["grpc-message"] == "Deadline exceeded")
            #expect(elapsed >= .milliseconds(400), "the stream ended \(elapsed) after it opened")
            // Usually the target is served before the deadline, and the status comes as trailers
            // after the response; on a loaded machine the deadline may come first, and the status
            // is then a trailers-only response. Either is well formed.
            let served = RawHTTP2.frames(in: received).contains { $0.stream == 1 && $0.type == 0x0 && !$0.payload.isEmpty }
            #expect(trailers?[":status"] == (served ? nil : "200"), "served: \(served), \(String(describing: trailers))")
        }
    }

    @Test("calls with a deadline they meet answer as usual, unary and streaming")
    func callsWithinTheirDeadline() async throws {
        try await TestServer.run { server in
            var options = CallOptions.defaults
            options.timeout = .seconds(60)
            _ = try await server.grpc.commit(
                Proto.commit([Proto.update("deadline/doc", ["n": 1])]), metadata: TestServer.owner, options: options)
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("deadline/doc")
            let document = try await server.grpc.getDocument(get, metadata: TestServer.owner, options: options)
            #expect(document.fields["n"]?.integerValue == 1)
            var query = Google_Firestore_V1_RunQueryRequest()
            query.parent = TestServer.database + "/documents"
            var from = Google_Firestore_V1_StructuredQuery.CollectionSelector()
            from.collectionID = "deadline"
            query.structuredQuery.from = [from]
            let names = try await server.grpc.runQuery(query, metadata: TestServer.owner, options: options) { response in
                var names: [String] = []
                for try await message in response.messages where message.hasDocument { names.append(message.document.name) }
                return names
            }
            #expect(names == [TestServer.name("deadline/doc")])
        }
    }
}
