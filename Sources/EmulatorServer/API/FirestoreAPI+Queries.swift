import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation
import SwiftProtobuf

/// How a read chooses its snapshot: the newest, a read time, or a transaction (one the request
/// names or one it begins, whose id the first response returns).
struct ReadConsistency {
    var readTime: Timestamp?
    var transaction: TransactionID?
    var isNewTransaction = false

    /// Begins the transaction `newTransaction` asks for, if any.
    init(
        store: DocumentStore, transaction: Data? = nil, newTransaction: Google_Firestore_V1_TransactionOptions? = nil,
        readTime: Google_Protobuf_Timestamp? = nil
    ) throws {
        if let transaction { self.transaction = try TransactionID(proto: transaction) }
        if let newTransaction {
            self.transaction = try store.beginTransaction(TransactionOptions(proto: newTransaction))
            isNewTransaction = true
        }
        if let readTime { self.readTime = try Timestamp(proto: readTime) }
    }

    /// The transaction id to return in the first response (empty unless this read began one).
    var returnedTransaction: Data { isNewTransaction ? transaction?.proto ?? Data() : Data() }
}

extension FirestoreAPI {
    /// `RunQuery`: one response per result document, each with the read time; a single
    /// response with the read time (and `done`) when there are none.
    func runQuery(
        _ request: Google_Firestore_V1_RunQueryRequest, context: RequestContext
    ) async throws -> [Google_Firestore_V1_RunQueryResponse] {
        let (database, parent) = try ResourceName.parent(request.parent)
        guard case .structuredQuery(let structured) = request.queryType else {
            throw FirestoreError.invalidArgument("RunQuery needs a structured_query")
        }
        let query = Query(database: database, parent: parent, structured: try StructuredQuery(proto: structured))
        let consistency = try readConsistency(request.consistencySelector)
        let result = try await run(consistency) { try store.runQuery(query, readTime: $0) }
        if let transaction = consistency.transaction {
            try await store.lockForTransaction(result.documents, transaction: transaction)
        }
        var responses = result.documents.map { document in
            var response = Google_Firestore_V1_RunQueryResponse()
            response.document = document.proto()
            response.readTime = result.readTime.proto
            return response
        }
        if responses.isEmpty {
            var response = Google_Firestore_V1_RunQueryResponse()
            response.readTime = result.readTime.proto
            response.done = true
            responses.append(response)
        }
        responses[0].transaction = consistency.returnedTransaction
        return responses
    }

    /// `RunAggregationQuery`: one response with the aggregate fields and the read time.
    func runAggregationQuery(
        _ request: Google_Firestore_V1_RunAggregationQueryRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_RunAggregationQueryResponse {
        let (database, parent) = try ResourceName.parent(request.parent)
        guard case .structuredAggregationQuery(let structured) = request.queryType else {
            throw FirestoreError.invalidArgument("RunAggregationQuery needs a structured_aggregation_query")
        }
        let query = try AggregationQuery(proto: structured, database: database, parent: parent)
        let selector: Google_Firestore_V1_RunQueryRequest.OneOf_ConsistencySelector? =
            switch request.consistencySelector {
            case nil: nil
            case .transaction(let data): .transaction(data)
            case .newTransaction(let options): .newTransaction(options)
            case .readTime(let time): .readTime(time)
            }
        let consistency = try readConsistency(selector)
        let result = try await run(consistency) { try store.runAggregation(query, readTime: $0) }
        var response = Google_Firestore_V1_RunAggregationQueryResponse()
        response.result.aggregateFields = result.fields.protoFields
        response.readTime = result.readTime.proto
        response.transaction = consistency.returnedTransaction
        return response
    }

    /// `BeginTransaction`: a new transaction's id.
    func beginTransaction(
        _ request: Google_Firestore_V1_BeginTransactionRequest, context: RequestContext
    ) throws -> Google_Firestore_V1_BeginTransactionResponse {
        _ = try ResourceName.database(request.database)
        let options = request.hasOptions ? try TransactionOptions(proto: request.options) : .readWrite()
        var response = Google_Firestore_V1_BeginTransactionResponse()
        response.transaction = try store.beginTransaction(options).proto
        return response
    }

    /// `Rollback`: ends a transaction without writing (an unknown one is no error).
    func rollback(
        _ request: Google_Firestore_V1_RollbackRequest, context: RequestContext
    ) throws -> Google_Protobuf_Empty {
        _ = try ResourceName.database(request.database)
        store.rollback(try TransactionID(proto: request.transaction))
        return Google_Protobuf_Empty()
    }

    /// `GetDocument` in a transaction, or as `getDocument(_:context:)` without one.
    func getDocumentInTransaction(
        _ request: Google_Firestore_V1_GetDocumentRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_Document {
        guard case .transaction(let data) = request.consistencySelector else {
            return try getDocument(request, context: context)
        }
        let name = try ResourceName.document(request.name)
        let mask = request.hasMask ? try request.mask.fieldPathList() : nil
        guard let document = try await store.document(name, transaction: try TransactionID(proto: data)) else {
            throw FirestoreAPI.notFound(name)
        }
        return document.proto(mask: mask)
    }

    /// `BatchGetDocuments` in a transaction (named or new), or as
    /// `batchGetDocuments(_:context:)` without one.
    func batchGetDocumentsInTransaction(
        _ request: Google_Firestore_V1_BatchGetDocumentsRequest, context: RequestContext
    ) async throws -> [Google_Firestore_V1_BatchGetDocumentsResponse] {
        let consistency: ReadConsistency
        switch request.consistencySelector {
        case nil, .readTime:
            return try batchGetDocuments(request, context: context)
        case .transaction(let data): consistency = try ReadConsistency(store: store, transaction: data)
        case .newTransaction(let options): consistency = try ReadConsistency(store: store, newTransaction: options)
        }
        let database = try ResourceName.database(request.database)
        let names = try request.documents.map { text in
            let name = try ResourceName.document(text)
            guard name.databaseID == database else {
                throw FirestoreError.invalidArgument(
                    "Document \"\(text)\" is not in the database \"\(request.database)\" of the request")
            }
            return name
        }
        let mask = request.hasMask ? try request.mask.fieldPathList() : nil
        let (time, documents) = try await store.documents(names, transaction: consistency.transaction!)
        var responses = zip(names, documents).map { name, document in
            var response = Google_Firestore_V1_BatchGetDocumentsResponse()
            if let document {
                response.found = document.proto(mask: mask)
            } else {
                response.missing = name.resourceName
            }
            response.readTime = time.proto
            return response
        }
        if consistency.isNewTransaction {
            if responses.isEmpty {
                var response = Google_Firestore_V1_BatchGetDocumentsResponse()
                response.readTime = time.proto
                responses.append(response)
            }
            responses[0].transaction = consistency.returnedTransaction
        }
        return responses
    }

    /// The consistency a query's selector asks for.
    private func readConsistency(
        _ selector: Google_Firestore_V1_RunQueryRequest.OneOf_ConsistencySelector?
    ) throws -> ReadConsistency {
        switch selector {
        case nil: try ReadConsistency(store: store)
        case .transaction(let data): try ReadConsistency(store: store, transaction: data)
        case .newTransaction(let options): try ReadConsistency(store: store, newTransaction: options)
        case .readTime(let time): try ReadConsistency(store: store, readTime: time)
        }
    }

    /// Runs `body` at the consistency's read time. In a transaction, that is the transaction's
    /// read time (a read-only one's snapshot; a read-write one's now).
    private func run<Result>(
        _ consistency: ReadConsistency, _ body: (Timestamp?) throws -> Result
    ) async throws -> Result {
        guard let transaction = consistency.transaction else { return try body(consistency.readTime) }
        let (readTime, _) = try await store.documents([], transaction: transaction)
        return try body(readTime)
    }
}
