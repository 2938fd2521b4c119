import DocumentModel
import FirestoreProto
import GRPCCore
import SwiftProtobuf

/// The gRPC service `google.firestore.v1.Firestore`: each RPC decodes nothing itself (the
/// generated code does), runs the matching `FirestoreAPI` method through the `RequestRunner`
/// and answers its result or its status.
///
/// RPCs that need a part of Hearth not built yet answer UNIMPLEMENTED naming it (see
/// `FirestoreService+Unimplemented.swift`).
struct FirestoreService: Google_Firestore_V1_Firestore.ServiceProtocol {
    let api: FirestoreAPI
    let runner: RequestRunner
    let sizeLimit: RequestSizeLimit

    func getDocument(
        request: ServerRequest<Google_Firestore_V1_GetDocumentRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_Document> {
        await unary(request, "GetDocument", path: request.message.name) {
            try await api.getDocument(request.message, context: $0)
        }
    }

    func listDocuments(
        request: ServerRequest<Google_Firestore_V1_ListDocumentsRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_ListDocumentsResponse> {
        let path = request.message.parent + "/" + request.message.collectionID
        return await unary(request, "ListDocuments", path: path) {
            try await api.listDocuments(request.message, context: $0)
        }
    }

    func createDocument(
        request: ServerRequest<Google_Firestore_V1_CreateDocumentRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_Document> {
        let path = request.message.parent + "/" + request.message.collectionID
        return await unary(request, "CreateDocument", path: path) {
            try sizeLimit.check(request.message)
            return try await api.createDocument(request.message, context: $0)
        }
    }

    func updateDocument(
        request: ServerRequest<Google_Firestore_V1_UpdateDocumentRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_Document> {
        await unary(request, "UpdateDocument", path: request.message.document.name) {
            try sizeLimit.check(request.message)
            return try await api.updateDocument(request.message, context: $0)
        }
    }

    func deleteDocument(
        request: ServerRequest<Google_Firestore_V1_DeleteDocumentRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        await unary(request, "DeleteDocument", path: request.message.name) { try await api.deleteDocument(request.message, context: $0) }
    }

    func batchGetDocuments(
        request: ServerRequest<Google_Firestore_V1_BatchGetDocumentsRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firestore_V1_BatchGetDocumentsResponse> {
        do throws(WireStatus) {
            let responses = try await runner.run(
                .grpc, method: "BatchGetDocuments", path: request.message.database,
                authorization: request.metadata.authorization
            ) { try await api.batchGetDocuments(request.message, context: $0) }
            return StreamingServerResponse { writer in
                try await writer.write(contentsOf: responses)
                return [:]
            }
        } catch {
            return StreamingServerResponse(error: error.rpcError)
        }
    }

    func commit(
        request: ServerRequest<Google_Firestore_V1_CommitRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_CommitResponse> {
        await unary(request, "Commit", path: request.message.database) {
            try sizeLimit.check(request.message)
            return try await api.commit(request.message, context: $0)
        }
    }

    func batchWrite(
        request: ServerRequest<Google_Firestore_V1_BatchWriteRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_BatchWriteResponse> {
        await unary(request, "BatchWrite", path: request.message.database) {
            try sizeLimit.check(request.message)
            return try await api.batchWrite(request.message, context: $0)
        }
    }

    func listCollectionIds(
        request: ServerRequest<Google_Firestore_V1_ListCollectionIdsRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_ListCollectionIdsResponse> {
        await unary(request, "ListCollectionIds", path: request.message.parent) {
            try api.listCollectionIDs(request.message, context: $0)
        }
    }

    func beginTransaction(
        request: ServerRequest<Google_Firestore_V1_BeginTransactionRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_BeginTransactionResponse> {
        await unary(request, "BeginTransaction", path: request.message.database) {
            try api.beginTransaction(request.message, context: $0)
        }
    }

    func rollback(
        request: ServerRequest<Google_Firestore_V1_RollbackRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        await unary(request, "Rollback", path: request.message.database) { try api.rollback(request.message, context: $0) }
    }

    func runQuery(
        request: ServerRequest<Google_Firestore_V1_RunQueryRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firestore_V1_RunQueryResponse> {
        await stream(request.metadata, "RunQuery", path: request.message.parent) {
            try await api.runQuery(request.message, context: $0)
        }
    }

    func runAggregationQuery(
        request: ServerRequest<Google_Firestore_V1_RunAggregationQueryRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firestore_V1_RunAggregationQueryResponse> {
        await stream(request.metadata, "RunAggregationQuery", path: request.message.parent) {
            [try await api.runAggregationQuery(request.message, context: $0)]
        }
    }

    /// Runs a server-streaming RPC whose responses are all computed up front through the
    /// runner, and streams them or answers its status.
    func stream<Output: Sendable>(
        _ metadata: Metadata, _ method: String, path: String,
        _ body: (RequestContext) async throws -> [Output]
    ) async -> StreamingServerResponse<Output> {
        do throws(WireStatus) {
            let responses = try await runner.run(
                .grpc, method: method, path: path, authorization: metadata.authorization, body)
            return StreamingServerResponse { writer in
                try await writer.write(contentsOf: responses)
                return [:]
            }
        } catch {
            return StreamingServerResponse(error: error.rpcError)
        }
    }

    /// Runs a unary RPC through the runner and wraps its result or status.
    func unary<Input: Sendable, Output: Sendable>(
        _ request: ServerRequest<Input>, _ method: String, path: String,
        _ body: (RequestContext) async throws -> Output
    ) async -> ServerResponse<Output> {
        do throws(WireStatus) {
            return ServerResponse(
                message: try await runner.run(
                    .grpc, method: method, path: path, authorization: request.metadata.authorization, body))
        } catch {
            return ServerResponse(error: error.rpcError)
        }
    }
}

extension Metadata {
    /// The `authorization` header's value, if the request has one.
    var authorization: String? {
        self[stringValues: "authorization"].first(where: { _ in true })
    }
}
