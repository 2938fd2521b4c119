@testable import EmulatorServer
import DocumentModel
import FirestoreProto
import FirestoreWire
import GRPCCore
import SwiftProtobuf

/// Shorthands for building request messages in tests.
enum Proto {
    /// A document message with `fields`, named `path` in the test database (or unnamed).
    static func document(_ path: String? = nil, _ fields: MapValue) -> Google_Firestore_V1_Document {
        var document = Google_Firestore_V1_Document()
        if let path { document.name = TestServer.name(path) }
        document.fields = fields.protoFields
        return document
    }

    /// An update write (a set, or with `mask` a masked update).
    static func update(
        _ path: String, _ fields: MapValue, mask: [String]? = nil, exists: Bool? = nil,
        transforms: [Google_Firestore_V1_DocumentTransform.FieldTransform] = []
    ) -> Google_Firestore_V1_Write {
        var write = Google_Firestore_V1_Write()
        write.update = document(path, fields)
        if let mask { write.updateMask = Proto.mask(mask) }
        if let exists { write.currentDocument.exists = exists }
        write.updateTransforms = transforms
        return write
    }

    /// A delete write.
    static func delete(_ path: String) -> Google_Firestore_V1_Write {
        var write = Google_Firestore_V1_Write()
        write.delete = TestServer.name(path)
        return write
    }

    /// A document mask.
    static func mask(_ paths: [String]) -> Google_Firestore_V1_DocumentMask {
        var mask = Google_Firestore_V1_DocumentMask()
        mask.fieldPaths = paths
        return mask
    }

    /// A commit request of `writes` in the test database.
    static func commit(_ writes: [Google_Firestore_V1_Write]) -> Google_Firestore_V1_CommitRequest {
        var request = Google_Firestore_V1_CommitRequest()
        request.database = TestServer.database
        request.writes = writes
        return request
    }

    /// A field transform.
    static func transform(
        _ path: String, _ kind: Google_Firestore_V1_DocumentTransform.FieldTransform.OneOf_TransformType
    ) -> Google_Firestore_V1_DocumentTransform.FieldTransform {
        var transform = Google_Firestore_V1_DocumentTransform.FieldTransform()
        transform.fieldPath = path
        transform.transformType = kind
        return transform
    }

    /// The fields of a document message.
    static func fields(_ document: Google_Firestore_V1_Document) throws -> MapValue {
        try MapValue(proto: document.fields)
    }
}

/// The `RPCError` that `body` throws, or `nil` if it succeeds.
func rpcError<T>(_ body: () async throws -> T) async -> RPCError? {
    do {
        _ = try await body()
        return nil
    } catch let error as RPCError {
        return error
    } catch {
        return RPCError(code: .unknown, message: "not an RPCError: \(error)")
    }
}
