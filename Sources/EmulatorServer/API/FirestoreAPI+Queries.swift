import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation
import SwiftProtobuf

extension FirestoreAPI {
    /// `RunQuery` (in a read-write transaction, locking its range): one response per result document, each with the read time, the last one
    /// with `done` (as Google's emulator sends it); a single response with the read time and
    /// `done` when there are none. The rules' `list` must allow the query.
    func runQuery(
        _ request: Google_Firestore_V1_RunQueryRequest, context: RequestContext
    ) async throws -> [Google_Firestore_V1_RunQueryResponse] {
        let (database, parent) = try seededParent(request.parent)
        guard case .structuredQuery(let structured) = request.queryType else {
            throw FirestoreError.invalidArgument("RunQuery needs a structured_query")
        }
        let query = Query(database: database, parent: parent, structured: try StructuredQuery(proto: structured))
        let consistency = try readConsistency(request.consistencySelector)
        let result =
            if let transaction = consistency.transaction {
                try await store.runQuery(query, transaction: transaction, as: context.identity)
            } else {
                try store.runQuery(query, readTime: consistency.readTime, as: context.identity)
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
            responses.append(response)
        }
        responses[responses.count - 1].done = true
        responses[0].transaction = consistency.returnedTransaction
        return responses
    }

    /// `RunAggregationQuery`: one response with the aggregate fields and the read time. The
    /// rules' `list` must allow the query.
    func runAggregationQuery(
        _ request: Google_Firestore_V1_RunAggregationQueryRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_RunAggregationQueryResponse {
        let (database, parent) = try seededParent(request.parent)
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
        let result =
            if let transaction = consistency.transaction {
                try await store.runAggregation(query, transaction: transaction, as: context.identity)
            } else {
                try store.runAggregation(query, readTime: consistency.readTime, as: context.identity)
            }
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
        _ = try seededDatabase(request.database)
        let options = request.hasOptions ? try TransactionOptions(proto: request.options) : .readWrite()
        var response = Google_Firestore_V1_BeginTransactionResponse()
        response.transaction = try store.beginTransaction(options).proto
        return response
    }

    /// `Rollback`: ends a transaction without writing (an unknown one is no error).
    func rollback(
        _ request: Google_Firestore_V1_RollbackRequest, context: RequestContext
    ) throws -> Google_Protobuf_Empty {
        _ = try seededDatabase(request.database)
        store.rollback(try TransactionID(proto: request.transaction))
        return Google_Protobuf_Empty()
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
}
