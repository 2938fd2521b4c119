@testable import EmulatorServer
import DocumentModel
import FirestoreProto
import FirestoreWire
import GRPCCore
import Testing

/// Document CRUD over gRPC, through the generated client, against a live server.
@Suite struct GRPCDocumentTests {
    @Test func createGetUpdateDelete() async throws {
        try await TestServer.run { server in
            var create = Google_Firestore_V1_CreateDocumentRequest()
            create.parent = TestServer.database + "/documents"
            create.collectionID = "users"
            create.documentID = "alice"
            create.document = Proto.document(nil, ["name": "Alice", "age": 30, "tags": ["a", "b"]])
            let created = try await server.grpc.createDocument(create, metadata: TestServer.owner)
            #expect(created.name == TestServer.name("users/alice"))
            #expect(try Proto.fields(created) == ["name": "Alice", "age": 30, "tags": ["a", "b"]])
            #expect(created.createTime == created.updateTime)

            var update = Google_Firestore_V1_UpdateDocumentRequest()
            update.document = Proto.document("users/alice", ["age": 31, "city": "Paris"])
            update.updateMask = Proto.mask(["age"])
            update.currentDocument.exists = true
            update.mask = Proto.mask(["age", "name"])
            let updated = try await server.grpc.updateDocument(update, metadata: TestServer.owner)
            #expect(try Proto.fields(updated) == ["name": "Alice", "age": 31])

            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("users/alice")
            let fetched = try await server.grpc.getDocument(get, metadata: TestServer.owner)
            #expect(try Proto.fields(fetched) == ["name": "Alice", "age": 31, "tags": ["a", "b"]])
            #expect(fetched.createTime == created.createTime)

            var delete = Google_Firestore_V1_DeleteDocumentRequest()
            delete.name = TestServer.name("users/alice")
            _ = try await server.grpc.deleteDocument(delete, metadata: TestServer.owner)
            let missing = await rpcError { try await server.grpc.getDocument(get, metadata: TestServer.owner) }
            #expect(missing?.code == .notFound)
            #expect(missing?.message == "Document (\(TestServer.name("users/alice"))) not found.")
        }
    }

    @Test func createWithoutAnIDMakesOne() async throws {
        try await TestServer.run { server in
            var create = Google_Firestore_V1_CreateDocumentRequest()
            create.parent = TestServer.name("users/alice")
            create.collectionID = "posts"
            create.document = Proto.document(nil, ["title": "Hello"])
            let created = try await server.grpc.createDocument(create, metadata: TestServer.owner)
            let id = created.name.split(separator: "/").last.map(String.init) ?? ""
            #expect(created.name == TestServer.name("users/alice/posts/\(id)"))
            #expect(id.count == 20 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        }
    }

    @Test func preconditionsFailWithFirestoresCodes() async throws {
        try await TestServer.run { server in
            let owner = TestServer.owner
            _ = try await server.grpc.commit(Proto.commit([Proto.update("c/a", ["n": 1], exists: false)]), metadata: owner)
            let createAgain = await rpcError {
                try await server.grpc.commit(Proto.commit([Proto.update("c/a", ["n": 2], exists: false)]), metadata: owner)
            }
            #expect(createAgain?.code == .alreadyExists)
            let updateMissing = await rpcError {
                try await server.grpc.commit(
                    Proto.commit([Proto.update("c/missing", ["n": 1], mask: ["n"], exists: true)]), metadata: owner)
            }
            #expect(updateMissing?.code == .notFound)
            var stale = Proto.update("c/a", ["n": 3])
            stale.currentDocument.updateTime = .init(seconds: 1_000_000, nanos: 0)
            let staleUpdate = await rpcError { try await server.grpc.commit(Proto.commit([stale]), metadata: owner) }
            #expect(staleUpdate?.code == .failedPrecondition)
            var future = Proto.update("c/a", ["n": 3])
            future.currentDocument.updateTime = .init(seconds: 250_000_000_000, nanos: 0)
            let futureUpdate = await rpcError { try await server.grpc.commit(Proto.commit([future]), metadata: owner) }
            #expect(futureUpdate?.code == .invalidArgument, "a base version newer than the stored one is invalid")
            var delete = Google_Firestore_V1_DeleteDocumentRequest()
            delete.name = TestServer.name("c/missing")
            delete.currentDocument.exists = true
            let failure = await rpcError { try await server.grpc.deleteDocument(delete, metadata: owner) }
            #expect(failure?.code == .notFound)
        }
    }

    @Test func commitAppliesTransformsAtTheCommitTime() async throws {
        try await TestServer.run { server in
            let write = Proto.update(
                "c/counter", ["name": "x"],
                transforms: [
                    Proto.transform("at", .setToServerValue(.requestTime)),
                    Proto.transform("n", .increment(Value.integer(5).proto)),
                    Proto.transform("tags", .appendMissingElements(.with { $0.values = [Value.string("a").proto] })),
                ])
            let response = try await server.grpc.commit(Proto.commit([write]), metadata: TestServer.owner)
            #expect(response.writeResults.count == 1)
            let results = try response.writeResults[0].transformResults.map(Value.init(proto:))
            let commitTime = try Timestamp(proto: response.commitTime)
            #expect(results.count == 3)
            #expect(results[0].isIdentical(to: .timestamp(commitTime)))
            #expect(results[1].isIdentical(to: .integer(5)))
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = TestServer.name("c/counter")
            let fields = try Proto.fields(try await server.grpc.getDocument(get, metadata: TestServer.owner))
            #expect(fields == ["name": "x", "at": .timestamp(commitTime), "n": 5, "tags": ["a"]])
        }
    }

    @Test func batchGetAnswersInOrderAtOneReadTime() async throws {
        try await TestServer.run { server in
            let first = try await server.grpc.commit(
                Proto.commit([Proto.update("c/a", ["v": 1, "w": 1]), Proto.update("c/b", ["v": 2])]),
                metadata: TestServer.owner)
            _ = try await server.grpc.commit(Proto.commit([Proto.update("c/a", ["v": 10])]), metadata: TestServer.owner)
            var request = Google_Firestore_V1_BatchGetDocumentsRequest()
            request.database = TestServer.database
            request.documents = ["c/b", "c/missing", "c/a"].map { TestServer.name($0) }
            request.mask = Proto.mask(["v"])
            let responses = try await server.grpc.batchGetDocuments(request, metadata: TestServer.owner) { response in
                try await response.messages.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.map(\.found.name) == [TestServer.name("c/b"), "", TestServer.name("c/a")])
            #expect(responses[1].missing == TestServer.name("c/missing"))
            #expect(try Proto.fields(responses[2].found) == ["v": 10])
            #expect(Set(responses.map(\.readTime)).count == 1)

            request.readTime = first.commitTime
            let past = try await server.grpc.batchGetDocuments(request, metadata: TestServer.owner) { response in
                try await response.messages.reduce(into: []) { $0.append($1) }
            }
            #expect(try Proto.fields(past[2].found) == ["v": 1])
        }
    }

    @Test func listDocumentsPagesAndShowsMissingDocuments() async throws {
        try await TestServer.run { server in
            let writes = ["c/a", "c/b", "c/c", "c/d/sub/x"].map { Proto.update($0, ["n": 1]) }
            _ = try await server.grpc.commit(Proto.commit(writes), metadata: TestServer.owner)
            var request = Google_Firestore_V1_ListDocumentsRequest()
            request.parent = TestServer.database + "/documents"
            request.collectionID = "c"
            request.pageSize = 2
            let page1 = try await server.grpc.listDocuments(request, metadata: TestServer.owner)
            #expect(page1.documents.map(\.name) == ["c/a", "c/b"].map { TestServer.name($0) })
            request.pageToken = page1.nextPageToken
            let page2 = try await server.grpc.listDocuments(request, metadata: TestServer.owner)
            #expect(page2.documents.map(\.name) == [TestServer.name("c/c")])
            #expect(page2.nextPageToken.isEmpty)

            request = Google_Firestore_V1_ListDocumentsRequest()
            request.parent = TestServer.database + "/documents"
            request.collectionID = "c"
            request.showMissing = true
            request.mask = Proto.mask([])
            let all = try await server.grpc.listDocuments(request, metadata: TestServer.owner)
            #expect(all.documents.map(\.name) == ["c/a", "c/b", "c/c", "c/d"].map { TestServer.name($0) })
            #expect(all.documents.allSatisfy { $0.fields.isEmpty })
            #expect(!all.documents[3].hasCreateTime)
        }
    }

    /// Orders as Google's emulator answers them (documents without the field left out; the
    /// name breaks ties in the last direction unless given), recorded with the Python client.
    @Test func listDocumentsOrderedByFields() async throws {
        try await TestServer.run { server in
            let values: [(String, Int?)] = [("d1", 3), ("d2", 1), ("d3", nil), ("d4", 2), ("d5", 1)]
            let writes = values.map { id, a in Proto.update("c/\(id)", a.map { ["a": .integer(Int64($0))] } ?? ["b": 1]) }
            _ = try await server.grpc.commit(Proto.commit(writes), metadata: TestServer.owner)
            func list(_ orderBy: String, pageSize: Int32 = 0, token: String = "") async throws
                -> Google_Firestore_V1_ListDocumentsResponse
            {
                var request = Google_Firestore_V1_ListDocumentsRequest()
                request.parent = TestServer.database + "/documents"
                request.collectionID = "c"
                request.orderBy = orderBy
                request.pageSize = pageSize
                request.pageToken = token
                return try await server.grpc.listDocuments(request, metadata: TestServer.owner)
            }
            func ids(_ response: Google_Firestore_V1_ListDocumentsResponse) -> [String] {
                response.documents.map { String($0.name.split(separator: "/").last!) }
            }
            #expect(try await ids(list("a")) == ["d2", "d5", "d4", "d1"])
            #expect(try await ids(list("a DESC")) == ["d1", "d4", "d5", "d2"])
            #expect(try await ids(list("a desc, __name__")) == ["d1", "d4", "d2", "d5"])
            #expect(try await ids(list("a, __name__ desc")) == ["d5", "d2", "d4", "d1"])
            #expect(try await ids(list("b")) == ["d3"])

            let first = try await list("a", pageSize: 2)
            #expect(ids(first) == ["d2", "d5"])
            let second = try await list("a", pageSize: 2, token: first.nextPageToken)
            #expect(ids(second) == ["d4", "d1"])
            #expect(second.nextPageToken.isEmpty)

            let clause = await rpcError { _ = try await list("x y") }
            #expect(clause?.code == .invalidArgument)
            #expect(clause?.message == "Invalid order by clause \"x y\".")
            let token = await rpcError { _ = try await list("a desc", pageSize: 2, token: first.nextPageToken) }
            #expect(token?.code == .invalidArgument, "a page token of another order")
            var missing = Google_Firestore_V1_ListDocumentsRequest()
            missing.parent = TestServer.database + "/documents"
            missing.collectionID = "c"
            missing.orderBy = "a"
            missing.showMissing = true
            let refused = await rpcError { _ = try await server.grpc.listDocuments(missing, metadata: TestServer.owner) }
            #expect(refused?.code == .invalidArgument)
        }
    }

    @Test func listCollectionIDsNamesCollectionsThatHoldDocuments() async throws {
        try await TestServer.run { server in
            let writes = ["a/1", "b/1/x/1", "c/1", "r/1/s/1", "r/1/t/1/u/1"].map { Proto.update($0, [:]) }
            _ = try await server.grpc.commit(Proto.commit(writes + [Proto.delete("c/1")]), metadata: TestServer.owner)
            var request = Google_Firestore_V1_ListCollectionIdsRequest()
            request.parent = TestServer.database + "/documents"
            #expect(try await server.grpc.listCollectionIds(request, metadata: TestServer.owner).collectionIds == ["a", "b", "r"])
            request.pageSize = 2
            let first = try await server.grpc.listCollectionIds(request, metadata: TestServer.owner)
            #expect(first.collectionIds == ["a", "b"])
            request.pageToken = first.nextPageToken
            #expect(try await server.grpc.listCollectionIds(request, metadata: TestServer.owner).collectionIds == ["r"])
            request = Google_Firestore_V1_ListCollectionIdsRequest()
            request.parent = TestServer.name("r/1")
            #expect(try await server.grpc.listCollectionIds(request, metadata: TestServer.owner).collectionIds == ["s", "t"])
        }
    }

    @Test func batchWriteReportsEachWrite() async throws {
        try await TestServer.run { server in
            var request = Google_Firestore_V1_BatchWriteRequest()
            request.database = TestServer.database
            request.writes = [Proto.update("c/new", ["n": 1]), Proto.update("c/none", ["n": 1], mask: ["n"], exists: true)]
            let response = try await server.grpc.batchWrite(request, metadata: TestServer.owner)
            #expect(response.status.map(\.code) == [0, Int32(FirestoreError.Code.notFound.rawValue)])
            #expect(response.writeResults[0].hasUpdateTime && !response.writeResults[1].hasUpdateTime)

            request.writes = [Proto.delete("c/x"), Proto.delete("c/x")]
            let twice = await rpcError { try await server.grpc.batchWrite(request, metadata: TestServer.owner) }
            #expect(twice?.code == .invalidArgument)
        }
    }

    @Test func everyProjectAndDatabaseHasItsOwnData() async throws {
        try await TestServer.run { server in
            let databases = [
                TestServer.database, "projects/demo-test/databases/other", "projects/demo-other/databases/(default)",
            ]
            for (index, database) in databases.enumerated() {
                var request = Google_Firestore_V1_CommitRequest()
                request.database = database
                var write = Google_Firestore_V1_Write()
                write.update.name = TestServer.name("c/d", database: database)
                write.update.fields = ["i": Value.integer(Int64(index)).proto]
                request.writes = [write]
                _ = try await server.grpc.commit(request, metadata: TestServer.owner)
            }
            for (index, database) in databases.enumerated() {
                var get = Google_Firestore_V1_GetDocumentRequest()
                get.name = TestServer.name("c/d", database: database)
                let document = try await server.grpc.getDocument(get, metadata: TestServer.owner)
                #expect(try Proto.fields(document) == ["i": .integer(Int64(index))])
            }
        }
    }
}
