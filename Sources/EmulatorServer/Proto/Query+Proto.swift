import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation
import SwiftProtobuf

// Queries from their proto messages. The message is encoded to its proto3 JSON form and read
// by the same decoder as the REST API's `runQuery` body, so gRPC and REST accept and reject
// exactly the same queries with the same messages.

extension StructuredQuery {
    /// Decodes a proto `StructuredQuery`.
    init(proto: Google_Firestore_V1_StructuredQuery) throws {
        try self.init(restJSON: try protoJSON(proto, "structuredQuery"))
    }
}

extension AggregationQuery {
    /// Decodes a proto `StructuredAggregationQuery` for a query of `database` under `parent`.
    init(proto: Google_Firestore_V1_StructuredAggregationQuery, database: DatabaseID, parent: ResourcePath) throws {
        try self.init(
            restJSON: try protoJSON(proto, "structuredAggregationQuery"), database: database, parent: parent)
    }
}

/// `message` in its proto3 JSON form, as the REST API would receive it.
private func protoJSON(_ message: some SwiftProtobuf.Message, _ what: String) throws -> JSONValue {
    do {
        return try JSONValue(parsing: [UInt8](try message.jsonUTF8Data()))
    } catch let error as FirestoreError {
        throw error
    } catch {
        throw FirestoreError.invalidArgument("\(what) cannot be read: \(error)")
    }
}
