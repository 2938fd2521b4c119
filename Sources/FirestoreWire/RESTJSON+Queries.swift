package import DocumentModel
package import FirestoreProto
import SwiftProtobuf

extension RESTJSON {
    /// Reads a `StructuredQuery` object (the REST API's `runQuery` body member) through its proto
    /// message, so it is accepted and refused exactly as the server accepts and refuses it.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for JSON that is not a `StructuredQuery` and
    ///   for a query the server refuses.
    package static func decodeQuery(_ json: JSONValue) throws -> StructuredQuery {
        try StructuredQuery(proto: try message(Google_Firestore_V1_StructuredQuery.self, json))
    }

    /// Reads a `StructuredAggregationQuery` object for a query of `database` under `parent`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for JSON that is not a
    ///   `StructuredAggregationQuery` and for a query the server refuses.
    package static func decodeAggregationQuery(
        _ json: JSONValue, database: DatabaseID, parent: ResourcePath
    ) throws -> AggregationQuery {
        try AggregationQuery(
            proto: try message(Google_Firestore_V1_StructuredAggregationQuery.self, json), database: database,
            parent: parent)
    }

    /// `json` as a `Message`, with the REST API's message for JSON that does not fit it.
    private static func message<Message: SwiftProtobuf.Message>(_ type: Message.Type, _ json: JSONValue) throws -> Message {
        do {
            return try Message(jsonUTF8Bytes: Array(json.serialized().utf8))
        } catch {
            throw FirestoreError.invalidArgument("Invalid JSON payload received: \(error)")
        }
    }
}
