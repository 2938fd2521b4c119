@testable import EmulatorServer
import DocumentModel
import FirestoreProto
import Foundation
import GRPCCore
import Testing

/// Statuses over gRPC: missing features, authorization headers, bad input, and the server
/// serving on after each.
@Suite struct GRPCStatusTests {
    @Test func missingFeaturesAnswerUnimplementedNamingThem() async throws {
        try await TestServer.run { server in
            var partition = Google_Firestore_V1_PartitionQueryRequest()
            partition.parent = TestServer.database + "/documents"
            let failure = await rpcError { try await server.grpc.partitionQuery(partition, metadata: TestServer.owner) }
            #expect(failure?.code == .unimplemented)
            #expect(failure?.message.contains("PartitionQuery") == true)
        }
    }

    @Test func authorizationHeadersNameTheCaller() async throws {
        try await TestServer.run { server in
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("c/d")
            let jwt = "Bearer \(base64URL(#"{"alg":"none"}"#)).\(base64URL(#"{"sub":"alice","admin":true}"#))."
            let callers: [Metadata] = [TestServer.owner, ["authorization": .string(jwt)], [:]]
            for metadata in callers {
                let failure = await rpcError { try await server.grpc.getDocument(get, metadata: metadata) }
                #expect(failure?.code == .notFound)
            }
            #expect(server.log.all.suffix(3).map(\.caller) == ["owner", "alice", "unauthenticated"])

            for bad in ["Bearer garbage", "Bearer a.b.c", "Bearer ", "Basic abc"] {
                let error = await rpcError { try await server.grpc.getDocument(get, metadata: ["authorization": .string(bad)]) }
                #expect(error?.code == .invalidArgument, "\(bad)")
            }
        }
    }

    @Test func malformedProtobufIsRefused() async throws {
        try await TestServer.run { server in
            let garbage: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x08]
            let error = await rpcError {
                try await server.rawGRPC.unary(
                    request: ClientRequest(message: garbage, metadata: TestServer.owner),
                    descriptor: Google_Firestore_V1_Firestore.Method.Commit.descriptor,
                    serializer: BytesSerializer(), deserializer: BytesSerializer(), options: .defaults
                ) { try $0.message }
            }
            #expect(error?.code == .invalidArgument || error?.code == .internalError, "\(String(describing: error))")
            try await expectServing(server)
        }
    }

    @Test func badResourceNamesGetGooglesMessages() async throws {
        try await TestServer.run { server in
            let cases = [
                ("foo", #"Document name "foo" lacks "projects" at index 0."#),
                (TestServer.name("c"), #"Document name "\#(TestServer.name("c"))" lacks "/" at index 50."#),
                (TestServer.name("c//d"), #"Document name "\#(TestServer.name("c//d"))" lacks a resource id at index 51."#),
                (TestServer.name("__c__/d"), #"Collection id "__c__" is invalid because it is reserved."#),
            ]
            for (name, message) in cases {
                var get = Google_Firestore_V1_GetDocumentRequest()
                get.name = name
                let error = await rpcError { try await server.grpc.getDocument(get, metadata: TestServer.owner) }
                #expect(error?.code == .invalidArgument)
                #expect(error?.message == message)
            }
            var commit = Proto.commit([Proto.update("c/d", ["n": 1])])
            commit.database = "projects/demo-test/databases/other"
            let failure = await rpcError { try await server.grpc.commit(commit, metadata: TestServer.owner) }
            #expect(failure?.code == .invalidArgument)
            try await expectServing(server)
        }
    }

    @Test func oversizedRequestsAreRefused() async throws {
        try await TestServer.run { server in
            let big = String(repeating: "x", count: 1_000_000)
            let writes = (0..<11).map { Proto.update("big/d\($0)", ["s": .string(big)]) }
            let error = await rpcError { try await server.grpc.commit(Proto.commit(writes), metadata: TestServer.owner) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == "Request payload size exceeds the limit: 10485760 bytes.")
            try await expectServing(server)
        }
    }

    @Test func unknownMethodsAreUnimplemented() async throws {
        try await TestServer.run { server in
            let error = await rpcError {
                try await server.rawGRPC.unary(
                    request: ClientRequest(message: [], metadata: TestServer.owner),
                    descriptor: MethodDescriptor(fullyQualifiedService: "google.firestore.v1.Firestore", method: "Bogus"),
                    serializer: BytesSerializer(), deserializer: BytesSerializer(), options: .defaults
                ) { try $0.message }
            }
            #expect(error?.code == .unimplemented)
        }
    }

    /// Checks that the server still answers over gRPC and HTTP.
    private func expectServing(_ server: TestServer) async throws {
        _ = try await server.grpc.commit(Proto.commit([Proto.update("alive/check", ["ok": true])]), metadata: TestServer.owner)
        #expect(try await server.http.send("GET", "/").body == "Ok\n")
    }
}

/// Passes bytes through unchanged, to send hand-made messages.
struct BytesSerializer: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}

/// `text` in unpadded base64url.
func base64URL(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}
