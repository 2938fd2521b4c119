@testable import EmulatorServer
import DocumentModel
import DocumentStore
import FirestoreProto
import Foundation
import GRPCCore
import Synchronization
import Testing

/// Every request's store work runs on the store's threads: reads on its readers, commits on its
/// writer, for gRPC and REST alike; none on Swift's cooperative threads.
@Suite struct ServerThreadsTests {
    /// The system clock, recording which of the store's pools every reading ran on. The store reads it
    /// on each commit and whenever rules judge a request (`request.time`).
    private final class ThreadNameClock: WallClock {
        private let names = Mutex<[String]>([])

        func now() -> Timestamp {
            let role = StoreThreadPool.Role.current
            names.withLock { $0.append(role == .writer ? "writer" : role == .reader ? "reader" : "other") }
            return SystemWallClock().now()
        }

        /// The pools recorded since the last call.
        func take() -> [String] {
            names.withLock { names in
                defer { names.removeAll() }
                return names
            }
        }
    }

    @Test func commitsRunOnTheWriterAndJudgedReadsOnTheReaders() async throws {
        let clock = ThreadNameClock()
        try await TestServer.run(rules: RulesFixtures.rules, clock: clock) { server in
            _ = clock.take()
            _ = try await server.grpc.commit(Proto.commit([Proto.update("open/o1", ["n": 1])]), metadata: TestServer.owner)
            let commit = clock.take()
            #expect(!commit.isEmpty)
            #expect(commit.allSatisfy { $0 == "writer" }, "gRPC commit on \(commit)")

            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("open/o1")
            _ = try await server.grpc.getDocument(get, metadata: RulesFixtures.user("alice"))
            let read = clock.take()
            #expect(!read.isEmpty)
            #expect(read.allSatisfy { $0 == "reader" }, "gRPC read on \(read)")

            let response = try await server.http.send(
                "GET", "/v1/" + TestServer.name("open/o1"), headers: RulesFixtures.userHeader("alice"))
            #expect(response.status == 200)
            let restRead = clock.take()
            #expect(!restRead.isEmpty)
            #expect(restRead.allSatisfy { $0 == "reader" }, "REST read on \(restRead)")
        }
    }

    /// Writes start on the writer thread (no pass through a reader); everything else on the readers.
    @Test func writeRequestsAreRoutedToTheWriter() {
        let database = "projects/p/databases/(default)"
        for method in ["Commit", "CreateDocument", "UpdateDocument", "DeleteDocument", "BatchWrite", "Write"] {
            #expect(RequestRunner.isWrite(method: method, path: database), "\(method)")
        }
        for method in ["GetDocument", "BatchGetDocuments", "RunQuery", "Listen", "BeginTransaction", "Rollback"] {
            #expect(!RequestRunner.isWrite(method: method, path: database), "\(method)")
        }
        #expect(RequestRunner.isWrite(method: "POST", path: "/v1/\(database)/documents:commit"))
        #expect(RequestRunner.isWrite(method: "POST", path: "/v1/\(database)/documents:batchWrite"))
        #expect(RequestRunner.isWrite(method: "POST", path: "/v1/\(database)/documents/users"))
        #expect(RequestRunner.isWrite(method: "PATCH", path: "/v1/\(database)/documents/users/a"))
        #expect(RequestRunner.isWrite(method: "DELETE", path: "/v1/\(database)/documents/users/a"))
        #expect(!RequestRunner.isWrite(method: "POST", path: "/v1/\(database)/documents:runQuery"))
        #expect(!RequestRunner.isWrite(method: "GET", path: "/v1/\(database)/documents/users/a"))
    }
}
