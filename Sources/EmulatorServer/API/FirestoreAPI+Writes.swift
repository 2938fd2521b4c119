import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import SwiftProtobuf

extension FirestoreAPI {
    /// `Commit`: the writes of one database, atomically, in order; the rules must allow each.
    /// A commit waits for the transactions holding locks on what it changes (see
    /// `DocumentStore.commitWaitingForLocks`).
    func commit(
        _ request: Google_Firestore_V1_CommitRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_CommitResponse {
        RequestDocuments.current?.note(request.writes.lazy.compactMap(\.documentName))
        let database = try seededDatabase(request.database)
        let writes = try request.writes.map { try Write(proto: $0, in: database) }
        let result =
            request.transaction.isEmpty
            ? try await store.commitWaitingForLocks(writes, as: context.identity)
            : try await store.commit(
                writes, transaction: try TransactionID(proto: request.transaction), as: context.identity)
        var response = Google_Firestore_V1_CommitResponse()
        response.writeResults = result.writeResults.map(\.proto)
        response.commitTime = result.commitTime.proto
        return response
    }

    /// `CreateDocument`: a new document in a collection, with the given id or a new one.
    func createDocument(
        _ request: Google_Firestore_V1_CreateDocumentRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_Document {
        let (database, parent) = try seededParent(request.parent)
        let collection = try parent.appending(request.collectionID)
        guard request.document.name.isEmpty else { throw FirestoreError.invalidArgument("document.name must not be set") }
        let id = request.documentID.isEmpty ? FirestoreAPI.autoID() : request.documentID
        let name = try DocumentName(database, try collection.appending(id))
        let mask = request.hasMask ? try request.mask.fieldPathList() : nil
        let result = try await store.commitWaitingForLocks(
            [.create(name, fields: try MapValue(proto: request.document.fields))], as: context.identity)
        return try written(name, at: result).proto(mask: mask)
    }

    /// `UpdateDocument`: replaces a document's fields, or with an update mask only the masked
    /// ones; creates the document unless a precondition says it must exist.
    func updateDocument(
        _ request: Google_Firestore_V1_UpdateDocumentRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_Document {
        let name = try seededDocument(request.document.name)
        let fields = try MapValue(proto: request.document.fields)
        let updateMask = request.hasUpdateMask ? try request.updateMask.fieldPathList() : nil
        let precondition = request.hasCurrentDocument ? try Precondition(proto: request.currentDocument) : .none
        let mask = request.hasMask ? try request.mask.fieldPathList() : nil
        let result = try await store.commitWaitingForLocks(
            [Write(name: name, operation: .update(fields: fields, mask: updateMask), precondition: precondition)],
            as: context.identity)
        return try written(name, at: result).proto(mask: mask)
    }

    /// `DeleteDocument`: deletes a document; a missing one is no error unless a precondition
    /// requires it to exist.
    func deleteDocument(
        _ request: Google_Firestore_V1_DeleteDocumentRequest, context: RequestContext
    ) async throws -> Google_Protobuf_Empty {
        let name = try seededDocument(request.name)
        let precondition = request.hasCurrentDocument ? try Precondition(proto: request.currentDocument) : .none
        try await store.commitWaitingForLocks([.delete(name, precondition: precondition)], as: context.identity)
        return Google_Protobuf_Empty()
    }

    /// `BatchWrite`: each write applied on its own (not atomically), each with its own status;
    /// a document may be written at most once per request. Only the admin may batch-write, as
    /// in Google's emulator (whose clients use it for the bulk writer and recursive delete).
    func batchWrite(
        _ request: Google_Firestore_V1_BatchWriteRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_BatchWriteResponse {
        RequestDocuments.current?.note(request.writes.lazy.compactMap(\.documentName))
        let database = try seededDatabase(request.database)
        try FirestoreAPI.requireAdmin(context, for: "Batch writes")
        let writes = try request.writes.map { try Write(proto: $0, in: database) }
        guard Set(writes.map(\.name)).count == writes.count else {
            throw FirestoreError.invalidArgument("the same document cannot be written more than once in a single request")
        }
        var response = Google_Firestore_V1_BatchWriteResponse()
        for write in writes {
            var status = Google_Rpc_Status()
            do {
                let result = try await store.commitWaitingForLocks([write], as: context.identity)
                response.writeResults.append(result.writeResults[0].proto)
            } catch {
                let failure = WireStatus(error)
                status.code = Int32(failure.code.rawValue)
                status.message = failure.message
                response.writeResults.append(Google_Firestore_V1_WriteResult())
            }
            response.status.append(status)
        }
        return response
    }

    /// The document `name` as the commit `result` left it.
    private func written(_ name: DocumentName, at result: CommitResult) throws -> Document {
        guard let document = try store.document(name, readTime: result.commitTime) else {
            throw FirestoreError(.internal, "Document \(name.resourceName) is missing right after its commit")
        }
        return document
    }
}
