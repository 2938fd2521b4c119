@testable import EmulatorServer
import DocumentModel
import FirestoreProto
import FirestoreWire
import Foundation
import GRPCCore
import Testing

/// Queries and transactions over gRPC, through the generated client, against a live server.
@Suite struct GRPCQueryTests {
    @Test func runQueryStreamsMatchingDocumentsInOrder() async throws {
        try await TestServer.run { server in
            let owner = TestServer.owner
            _ = try await server.grpc.commit(
                Proto.commit([
                    Proto.update("cities/a", ["pop": 5]), Proto.update("cities/b", ["pop": 50]),
                    Proto.update("cities/c", ["pop": 20]),
                ]), metadata: owner)

            var request = Google_Firestore_V1_RunQueryRequest()
            request.parent = TestServer.database + "/documents"
            var from = Google_Firestore_V1_StructuredQuery.CollectionSelector()
            from.collectionID = "cities"
            request.structuredQuery.from = [from]
            var filter = Google_Firestore_V1_StructuredQuery.FieldFilter()
            filter.field.fieldPath = "pop"
            filter.op = .greaterThan
            filter.value = Value.integer(10).proto
            request.structuredQuery.where.fieldFilter = filter
            var order = Google_Firestore_V1_StructuredQuery.Order()
            order.field.fieldPath = "pop"
            order.direction = .descending
            request.structuredQuery.orderBy = [order]
            let responses = try await server.grpc.runQuery(request, metadata: owner) { response in
                try await response.messages.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.map(\.document.name) == [TestServer.name("cities/b"), TestServer.name("cities/c")])
            #expect(responses.allSatisfy { $0.hasReadTime })

            filter.value = Value.integer(1000).proto
            request.structuredQuery.where.fieldFilter = filter
            request.newTransaction = Google_Firestore_V1_TransactionOptions()
            let empty = try await server.grpc.runQuery(request, metadata: owner) { response in
                try await response.messages.reduce(into: []) { $0.append($1) }
            }
            #expect(empty.count == 1)
            #expect(empty.first?.hasDocument == false)
            #expect(empty.first?.hasReadTime == true)
            #expect(empty.first?.transaction.isEmpty == false)
        }
    }

    @Test func transactionReadsThenCommitsOrRollsBack() async throws {
        try await TestServer.run { server in
            let owner = TestServer.owner
            _ = try await server.grpc.commit(Proto.commit([Proto.update("c/n", ["n": 1])]), metadata: owner)

            var begin = Google_Firestore_V1_BeginTransactionRequest()
            begin.database = TestServer.database
            let transaction = try await server.grpc.beginTransaction(begin, metadata: owner).transaction
            #expect(!transaction.isEmpty)

            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("c/n")
            get.transaction = transaction
            let read = try await server.grpc.getDocument(get, metadata: owner)
            #expect(try Proto.fields(read) == ["n": 1])

            var commit = Proto.commit([Proto.update("c/n", ["n": 2])])
            commit.transaction = transaction
            let committed = try await server.grpc.commit(commit, metadata: owner)
            #expect(committed.writeResults.count == 1)

            get.consistencySelector = nil
            #expect(try Proto.fields(try await server.grpc.getDocument(get, metadata: owner)) == ["n": 2])

            // A second commit of the same transaction fails; rolling it back is fine.
            let again = await rpcError { try await server.grpc.commit(commit, metadata: owner) }
            #expect(again != nil)
            var rollback = Google_Firestore_V1_RollbackRequest()
            rollback.database = TestServer.database
            rollback.transaction = transaction
            _ = try await server.grpc.rollback(rollback, metadata: owner)

            // BatchGetDocuments can begin a transaction and return its id.
            var batch = Google_Firestore_V1_BatchGetDocumentsRequest()
            batch.database = TestServer.database
            batch.documents = [TestServer.name("c/n"), TestServer.name("c/missing")]
            batch.newTransaction = Google_Firestore_V1_TransactionOptions()
            let responses = try await server.grpc.batchGetDocuments(batch, metadata: owner) { response in
                try await response.messages.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.count == 2)
            #expect(responses.first?.transaction.isEmpty == false)
            rollback.transaction = responses[0].transaction
            _ = try await server.grpc.rollback(rollback, metadata: owner)
        }
    }
}
