import DocumentModel
import DocumentStore
import FirestoreExport
import FirestoreProto
import NIOHTTP1
import SwiftProtobuf

/// Firestore's REST v1 API and the emulator's admin endpoints over HTTP/1.1: routes a request
/// (`RESTRoute`), binds its path, query and JSON body to the same request messages the gRPC
/// service receives, runs the `FirestoreAPI` method through the `RequestRunner`, and answers
/// proto3 JSON or Google's JSON error body. Paths under `/ui` go to the console, unlogged.
struct RESTGateway: Sendable {
    let api: FirestoreAPI
    let runner: RequestRunner
    let rulesAdmin: RulesAdmin
    let console: ConsoleAPI

    /// The reply to `request`; never fails (failures are error responses).
    func respond(to request: HTTPRequest) async -> HTTPReply {
        if let segments = request.segments, let route = ConsoleRoute(method: request.method, segments: segments) {
            return await console.respond(to: route, request)
        }
        return .response(await respondToAPI(request))
    }

    /// The response to a request for Firestore's REST API or the emulator's endpoints.
    private func respondToAPI(_ request: HTTPRequest) async -> HTTPResponse {
        guard let segments = request.segments, let route = RESTRoute(method: request.method, segments: segments) else {
            runner.report(RequestLogEntry(
                transport: .http, method: request.method.rawValue, path: request.rawPath, caller: "-",
                failure: FirestoreError(.notFound, "Not Found"), duration: 0))
            return .notFound
        }
        do throws(WireStatus) {
            return try await runner.run(
                .http, method: request.method.rawValue, path: request.rawPath, authorization: request.authorization
            ) { context in
                try await respond(to: route, request, context: context)
            }
        } catch {
            return .error(error)
        }
    }

    private func respond(
        to route: RESTRoute, _ request: HTTPRequest, context: RequestContext
    ) async throws -> HTTPResponse {
        var query = QueryParameters(request.query)
        let response: HTTPResponse
        switch route {
        case .health:
            response = .text("Ok")
        case .clear(let database, let path):
            try query.finish()
            try api.seeding?.seed(database)
            _ = try await api.store.writing { [store = api.store] in try store.clear(database, below: path) }
            response = .json(Array("{}".utf8))
        case .rulesAdmin(let project, let endpoint):
            try query.finish()
            response = try rulesAdmin.respond(to: endpoint, project: project, body: request.body)
        case .export:
            try query.finish()
            response = try ExportAdmin(store: api.store, seeding: api.seeding).respond(body: request.body)
        case .getDocument(let name):
            var message = Google_Firestore_V1_GetDocumentRequest()
            message.name = name
            if let mask = query.mask("mask") { message.mask = mask }
            if let transaction = try query.bytes("transaction") { message.transaction = transaction }
            if let readTime = try query.timestamp("readTime") { message.readTime = readTime }
            try query.finish()
            response = .json(try ProtoJSON.encode(try await api.getDocument(message, context: context)))
        case .listDocuments(let parent, let collectionID):
            var message = Google_Firestore_V1_ListDocumentsRequest()
            message.parent = parent
            message.collectionID = collectionID
            message.pageSize = try query.int32("pageSize") ?? 0
            message.pageToken = try query.string("pageToken") ?? ""
            message.orderBy = try query.string("orderBy") ?? ""
            message.showMissing = try query.bool("showMissing") ?? false
            if let mask = query.mask("mask") { message.mask = mask }
            if let transaction = try query.bytes("transaction") { message.transaction = transaction }
            if let readTime = try query.timestamp("readTime") { message.readTime = readTime }
            try query.finish()
            response = .json(try ProtoJSON.encode(try await api.listDocuments(message, context: context)))
        case .createDocument(let parent, let collectionID):
            var message = Google_Firestore_V1_CreateDocumentRequest()
            message.document = try ProtoJSON.decode(Google_Firestore_V1_Document.self, from: request.body)
            message.parent = parent
            message.collectionID = collectionID
            message.documentID = try query.string("documentId") ?? ""
            if let mask = query.mask("mask") { message.mask = mask }
            try query.finish()
            response = .json(try ProtoJSON.encode(try await api.createDocument(message, context: context)))
        case .updateDocument(let name):
            var message = Google_Firestore_V1_UpdateDocumentRequest()
            message.document = try ProtoJSON.decode(Google_Firestore_V1_Document.self, from: request.body)
            message.document.name = name
            if let mask = query.mask("updateMask") { message.updateMask = mask }
            if let mask = query.mask("mask") { message.mask = mask }
            if let precondition = try query.precondition() { message.currentDocument = precondition }
            try query.finish()
            response = .json(try ProtoJSON.encode(try await api.updateDocument(message, context: context)))
        case .deleteDocument(let name):
            var message = Google_Firestore_V1_DeleteDocumentRequest()
            message.name = name
            if let precondition = try query.precondition() { message.currentDocument = precondition }
            try query.finish()
            response = .json(try ProtoJSON.encode(try await api.deleteDocument(message, context: context)))
        case .method(let method, let database, let parent):
            try query.finish()
            response = try await respond(toMethod: method, database: database, parent: parent, request.body, context: context)
        }
        return response
    }

    /// A custom method (`:commit`, `:batchGet`, ...): the body is the request message, whose
    /// database comes from the path.
    private func respond(
        toMethod method: String, database: String, parent: String, _ body: [UInt8], context: RequestContext
    ) async throws -> HTTPResponse {
        let atDatabase = parent == database + "/documents"
        switch method {
        case "batchGet" where atDatabase:
            var message = try ProtoJSON.decode(Google_Firestore_V1_BatchGetDocumentsRequest.self, from: body)
            message.database = database
            return .json(try ProtoJSON.encode(array: try await api.batchGetDocuments(message, context: context)))
        case "commit" where atDatabase:
            var message = try ProtoJSON.decode(Google_Firestore_V1_CommitRequest.self, from: body)
            message.database = database
            return .json(try ProtoJSON.encode(try await api.commit(message, context: context)))
        case "batchWrite" where atDatabase:
            var message = try ProtoJSON.decode(Google_Firestore_V1_BatchWriteRequest.self, from: body)
            message.database = database
            return .json(try ProtoJSON.encode(try await api.batchWrite(message, context: context)))
        case "beginTransaction" where atDatabase:
            var message = try ProtoJSON.decode(Google_Firestore_V1_BeginTransactionRequest.self, from: body)
            message.database = database
            return .json(try ProtoJSON.encode(try api.beginTransaction(message, context: context)))
        case "rollback" where atDatabase:
            var message = try ProtoJSON.decode(Google_Firestore_V1_RollbackRequest.self, from: body)
            message.database = database
            return .json(try ProtoJSON.encode(try api.rollback(message, context: context)))
        case "runQuery":
            var message = try ProtoJSON.decode(Google_Firestore_V1_RunQueryRequest.self, from: body)
            message.parent = parent
            return .json(try ProtoJSON.encode(array: try await api.runQuery(message, context: context)))
        case "runAggregationQuery":
            var message = try ProtoJSON.decode(Google_Firestore_V1_RunAggregationQueryRequest.self, from: body)
            message.parent = parent
            return .json(try ProtoJSON.encode(array: [try await api.runAggregationQuery(message, context: context)]))
        case "listCollectionIds":
            var message = try ProtoJSON.decode(Google_Firestore_V1_ListCollectionIdsRequest.self, from: body)
            message.parent = parent
            return .json(try ProtoJSON.encode(try api.listCollectionIDs(message, context: context)))
        case "partitionQuery":
            throw MissingFeature.partitionQuery.error(method)
        case "executePipeline" where atDatabase:
            throw MissingFeature.pipelines.error(method)
        case "listen" where atDatabase:
            throw MissingFeature.listeners.error(method)
        case "write" where atDatabase:
            throw MissingFeature.writeStream.error(method)
        default:
            throw FirestoreError(.notFound, "There is no method :\(method) on \(parent)")
        }
    }
}
