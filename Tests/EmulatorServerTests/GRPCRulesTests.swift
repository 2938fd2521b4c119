@testable import EmulatorServer
import DocumentModel
import FirestoreProto
import GRPCCore
import Testing

/// Security rules decide every non-admin gRPC request, with Google's emulator's statuses and
/// messages; the owner bypasses them.
@Suite struct GRPCRulesTests {
    private let alice = RulesFixtures.user("alice")

    /// A server with the fixture rules and `users/bob` and `open/o1`, written by the owner.
    private func withSeededServer(_ body: (TestServer) async throws -> Void) async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            _ = try await server.grpc.commit(
                Proto.commit([Proto.update("users/bob", ["n": 1]), Proto.update("open/o1", ["n": 1])]),
                metadata: TestServer.owner)
            try await body(server)
        }
    }

    private func get(_ path: String) -> Google_Firestore_V1_GetDocumentRequest {
        var request = Google_Firestore_V1_GetDocumentRequest()
        request.name = TestServer.name(path)
        return request
    }

    private func query(_ collection: String) -> Google_Firestore_V1_RunQueryRequest {
        var request = Google_Firestore_V1_RunQueryRequest()
        request.parent = TestServer.database + "/documents"
        var selector = Google_Firestore_V1_StructuredQuery.CollectionSelector()
        selector.collectionID = collection
        request.structuredQuery.from = [selector]
        return request
    }

    @Test func documentReadsFollowTheGetRule() async throws {
        try await withSeededServer { server in
            let denied = await rpcError { try await server.grpc.getDocument(get("users/bob"), metadata: alice) }
            #expect(denied?.code == .permissionDenied)
            #expect(denied?.message == "\nfalse for 'get' @ L8")
            let anonymous = await rpcError { try await server.grpc.getDocument(get("users/bob"), metadata: [:]) }
            #expect(anonymous?.code == .permissionDenied)
            let missing = await rpcError { try await server.grpc.getDocument(get("users/alice"), metadata: alice) }
            #expect(missing?.code == .notFound, "allowed, and the document does not exist")
            #expect(try await server.grpc.getDocument(get("users/bob"), metadata: RulesFixtures.user("bob")).name
                == TestServer.name("users/bob"))
            #expect(try await server.grpc.getDocument(get("users/bob"), metadata: TestServer.owner).name
                == TestServer.name("users/bob"))

            var batch = Google_Firestore_V1_BatchGetDocumentsRequest()
            batch.database = TestServer.database
            batch.documents = [TestServer.name("users/alice"), TestServer.name("open/o1")]
            let allowed = try await server.grpc.batchGetDocuments(batch, metadata: alice) { try await allMessages($0) }
            #expect(allowed.map(\.missing) == [TestServer.name("users/alice"), ""])
            batch.documents.append(TestServer.name("users/bob"))
            let batchDenied = await rpcError {
                try await server.grpc.batchGetDocuments(batch, metadata: alice) { try await allMessages($0) }
            }
            #expect(batchDenied?.code == .permissionDenied)
            #expect(batchDenied?.message == "\nfalse for 'get' @ L8")

            let outcomes = server.log.all.filter { $0.method == "GetDocument" }.map(\.rules)
            #expect(outcomes == [.denied, .denied, .allowed, .allowed, .admin])
        }
    }

    @Test func writesFollowTheWriteRules() async throws {
        try await withSeededServer { server in
            let create = Proto.update("users/alice", ["n": 1], exists: false)
            _ = try await server.grpc.commit(Proto.commit([create]), metadata: alice)

            let update = await rpcError { try await server.grpc.commit(Proto.commit([Proto.update("users/alice", ["n": 2])]), metadata: alice) }
            #expect(update?.code == .permissionDenied)
            #expect(update?.message.contains("false for 'update' @ L10") == true, "\(update?.message ?? "")")

            // One denied write fails the whole commit: the allowed one is not written.
            let mixed = await rpcError {
                try await server.grpc.commit(
                    Proto.commit([Proto.update("open/o2", ["n": 1]), Proto.update("users/carol", ["n": 1])]),
                    metadata: alice)
            }
            #expect(mixed?.code == .permissionDenied)
            let o2 = await rpcError { try await server.grpc.getDocument(get("open/o2"), metadata: TestServer.owner) }
            #expect(o2?.code == .notFound)

            var createDocument = Google_Firestore_V1_CreateDocumentRequest()
            createDocument.parent = TestServer.database + "/documents"
            createDocument.collectionID = "users"
            createDocument.documentID = "zed"
            let created = await rpcError { try await server.grpc.createDocument(createDocument, metadata: alice) }
            #expect(created?.code == .permissionDenied)
            #expect(created?.message == "\nfalse for 'create' @ L9")
            createDocument.collectionID = "open"
            #expect(try await server.grpc.createDocument(createDocument, metadata: alice).name == TestServer.name("open/zed"))

            var updateDocument = Google_Firestore_V1_UpdateDocumentRequest()
            updateDocument.document = Proto.document("users/bob", ["n": 5])
            let updated = await rpcError { try await server.grpc.updateDocument(updateDocument, metadata: alice) }
            #expect(updated?.code == .permissionDenied)
            _ = try await server.grpc.updateDocument(updateDocument, metadata: TestServer.owner)

            var delete = Google_Firestore_V1_DeleteDocumentRequest()
            delete.name = TestServer.name("users/bob")
            let deleted = await rpcError { try await server.grpc.deleteDocument(delete, metadata: alice) }
            #expect(deleted?.code == .permissionDenied)
            #expect(deleted?.message == "No matching allow statements")
            delete.name = TestServer.name("open/zed")
            _ = try await server.grpc.deleteDocument(delete, metadata: alice)
        }
    }

    @Test func queriesAndListingFollowTheListRule() async throws {
        try await withSeededServer { server in
            let denied = await rpcError { try await server.grpc.runQuery(query("users"), metadata: alice) { try await allMessages($0) } }
            #expect(denied?.code == .permissionDenied)
            #expect(denied?.message.contains("for 'list' @ L8") == true)
            let open = try await server.grpc.runQuery(query("open"), metadata: alice) { try await allMessages($0) }
            #expect(open.map(\.document.name) == [TestServer.name("open/o1")])
            #expect(open.last?.done == true)

            var aggregation = Google_Firestore_V1_RunAggregationQueryRequest()
            aggregation.parent = TestServer.database + "/documents"
            aggregation.structuredAggregationQuery.structuredQuery = query("users").structuredQuery
            var count = Google_Firestore_V1_StructuredAggregationQuery.Aggregation()
            count.count = .init()
            aggregation.structuredAggregationQuery.aggregations = [count]
            let aggregationDenied = await rpcError {
                try await server.grpc.runAggregationQuery(aggregation, metadata: alice) { try await allMessages($0) }
            }
            #expect(aggregationDenied?.code == .permissionDenied)
            let counted = try await server.grpc.runAggregationQuery(aggregation, metadata: TestServer.owner) {
                try await allMessages($0)
            }
            #expect(counted.first?.result.aggregateFields["field_1"]?.integerValue == 1)

            var list = Google_Firestore_V1_ListDocumentsRequest()
            list.parent = TestServer.database + "/documents"
            list.collectionID = "users"
            let listDenied = await rpcError { try await server.grpc.listDocuments(list, metadata: alice) }
            #expect(listDenied?.code == .permissionDenied)
            list.collectionID = "open"
            #expect(try await server.grpc.listDocuments(list, metadata: alice).documents.count == 1)
            list.collectionID = ""
            let everything = await rpcError { try await server.grpc.listDocuments(list, metadata: alice) }
            #expect(everything?.message == "No matching allow statements")
        }
    }

    @Test func collectionIdsAndBatchWritesAreForTheOwnerOnly() async throws {
        // As in Google's emulator, even without rules.
        try await TestServer.run { server in
            var ids = Google_Firestore_V1_ListCollectionIdsRequest()
            ids.parent = TestServer.database + "/documents"
            let idsDenied = await rpcError { try await server.grpc.listCollectionIds(ids, metadata: alice) }
            #expect(idsDenied?.code == .permissionDenied)
            #expect(idsDenied?.message == "Metadata operations require admin authentication.")
            _ = try await server.grpc.listCollectionIds(ids, metadata: TestServer.owner)

            var batch = Google_Firestore_V1_BatchWriteRequest()
            batch.database = TestServer.database
            batch.writes = [Proto.update("open/x", ["n": 1])]
            let batchDenied = await rpcError { try await server.grpc.batchWrite(batch, metadata: [:]) }
            #expect(batchDenied?.message == "Batch writes require admin authentication.")
            #expect(try await server.grpc.batchWrite(batch, metadata: TestServer.owner).status.map(\.code) == [0])
        }
    }

    @Test func transactionalReadsAndCommitsFollowTheRules() async throws {
        try await withSeededServer { server in
            var begin = Google_Firestore_V1_BeginTransactionRequest()
            begin.database = TestServer.database
            let transaction = try await server.grpc.beginTransaction(begin, metadata: alice).transaction

            var read = get("users/bob")
            read.transaction = transaction
            let denied = await rpcError { try await server.grpc.getDocument(read, metadata: alice) }
            #expect(denied?.code == .permissionDenied)
            read.name = TestServer.name("open/o1")
            #expect(try await server.grpc.getDocument(read, metadata: alice).fields["n"]?.integerValue == 1)

            var commit = Proto.commit([Proto.update("users/bob", ["n": 2])])
            commit.transaction = transaction
            let commitDenied = await rpcError { try await server.grpc.commit(commit, metadata: alice) }
            #expect(commitDenied?.code == .permissionDenied)

            var batch = Google_Firestore_V1_BatchGetDocumentsRequest()
            batch.database = TestServer.database
            batch.documents = [TestServer.name("open/o1")]
            batch.newTransaction = .init()
            let responses = try await server.grpc.batchGetDocuments(batch, metadata: alice) { try await allMessages($0) }
            let started = try #require(responses.first?.transaction)
            #expect(!started.isEmpty)
            var query = query("open")
            query.transaction = started
            #expect(try await server.grpc.runQuery(query, metadata: alice) { try await allMessages($0) }.count == 1)
            var listing = Google_Firestore_V1_ListDocumentsRequest()
            listing.parent = TestServer.database + "/documents"
            listing.collectionID = "open"
            listing.transaction = started
            #expect(try await server.grpc.listDocuments(listing, metadata: alice).documents.count == 1)
            var write = Proto.commit([Proto.update("open/o1", ["n": 3])])
            write.transaction = started
            _ = try await server.grpc.commit(write, metadata: alice)
            #expect(try await server.grpc.getDocument(get("open/o1"), metadata: alice).fields["n"]?.integerValue == 3)
        }
    }

    @Test func theServerRulesApplyToEveryProject() async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            for project in ["demo-test", "another-project"] {
                var request = Google_Firestore_V1_GetDocumentRequest()
                request.name = "projects/\(project)/databases/(default)/documents/users/bob"
                let denied = await rpcError { try await server.grpc.getDocument(request, metadata: alice) }
                #expect(denied?.code == .permissionDenied, "\(project)")
            }
        }
    }

    @Test func aServerWhoseRulesHaveErrorsDoesNotStart() async throws {
        let broken = RulesFile(source: RulesFixtures.source.replacingOccurrences(of: "if false;", with: "if foo(;"))
        do {
            _ = try await TestServer.run(rules: broken) { _ in Issue.record("the server started") }
        } catch {
            #expect("\(error)".contains("firestore.rules:10:28: error: Unexpected ';'."), "\(error)")
        }
    }
}
