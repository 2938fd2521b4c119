import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation

extension FirestoreAPI {
    /// `GetDocument`: one document, at the newest version or a read time.
    func getDocument(
        _ request: Google_Firestore_V1_GetDocumentRequest, context: RequestContext
    ) throws -> Google_Firestore_V1_Document {
        let name = try ResourceName.document(request.name)
        let mask = request.hasMask ? try request.mask.fieldPathList() : nil
        let readTime: Timestamp?
        switch request.consistencySelector {
        case nil: readTime = nil
        case .transaction: throw MissingFeature.transactions.error("GetDocument in a transaction")
        case .readTime(let time): readTime = try Timestamp(proto: time)
        }
        guard let document = try store.document(name, readTime: readTime) else { throw FirestoreAPI.notFound(name) }
        return document.proto(mask: mask)
    }

    /// `BatchGetDocuments`: several documents of one database at one consistent read time, one
    /// response per requested name, in order.
    func batchGetDocuments(
        _ request: Google_Firestore_V1_BatchGetDocumentsRequest, context: RequestContext
    ) throws -> [Google_Firestore_V1_BatchGetDocumentsResponse] {
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
        let readTime: Timestamp?
        switch request.consistencySelector {
        case nil: readTime = nil
        case .transaction, .newTransaction:
            throw MissingFeature.transactions.error("BatchGetDocuments in a transaction")
        case .readTime(let time): readTime = try Timestamp(proto: time)
        }
        let (time, documents) = try store.documents(names, readTime: readTime)
        return zip(names, documents).map { name, document in
            var response = Google_Firestore_V1_BatchGetDocumentsResponse()
            if let document {
                response.found = document.proto(mask: mask)
            } else {
                response.missing = name.resourceName
            }
            response.readTime = time.proto
            return response
        }
    }

    /// `ListDocuments`: the documents directly in one collection (or, without a collection id,
    /// in every collection directly under the parent), in name order, a page at a time; with
    /// `show_missing`, also the documents that do not exist but have documents below them.
    ///
    /// The only order is by name; another needs the query engine's ordering, not wired here.
    func listDocuments(
        _ request: Google_Firestore_V1_ListDocumentsRequest, context: RequestContext
    ) throws -> Google_Firestore_V1_ListDocumentsResponse {
        let (database, parent) = try ResourceName.parent(request.parent)
        guard ["", "__name__", "__name__ asc"].contains(request.orderBy.trimmingCharacters(in: .whitespaces)) else {
            throw MissingFeature.queries.error("ListDocuments ordered by '\(request.orderBy)'")
        }
        let readTime: Timestamp?
        switch request.consistencySelector {
        case nil: readTime = nil
        case .transaction: throw MissingFeature.transactions.error("ListDocuments in a transaction")
        case .readTime(let time): readTime = try Timestamp(proto: time)
        }
        let page = try store.listDocuments(
            parent: parent, collectionID: request.collectionID, of: database, pageSize: Int(request.pageSize),
            pageToken: request.pageToken.isEmpty ? nil : request.pageToken, showMissing: request.showMissing,
            mask: request.hasMask ? try request.mask.fieldPathList() : nil, readTime: readTime)
        var response = Google_Firestore_V1_ListDocumentsResponse()
        response.documents = page.documents.map { entry in
            switch entry {
            case .document(let document): return document.proto()
            case .missing(let name):
                var message = Google_Firestore_V1_Document()
                message.name = name.resourceName
                return message
            }
        }
        response.nextPageToken = page.nextPageToken ?? ""
        return response
    }

    /// `ListCollectionIds`: the ids of the collections directly under a document or the
    /// database root that hold at least one document, in order, a page at a time.
    func listCollectionIDs(
        _ request: Google_Firestore_V1_ListCollectionIdsRequest, context: RequestContext
    ) throws -> Google_Firestore_V1_ListCollectionIdsResponse {
        let (database, parent) = try ResourceName.parent(request.parent)
        let readTime: Timestamp?
        switch request.consistencySelector {
        case nil: readTime = nil
        case .readTime(let time): readTime = try Timestamp(proto: time)
        }
        let page = try store.listCollectionIDs(
            parent: parent, of: database, pageSize: Int(request.pageSize),
            pageToken: request.pageToken.isEmpty ? nil : request.pageToken, readTime: readTime)
        var response = Google_Firestore_V1_ListCollectionIdsResponse()
        response.collectionIds = page.collectionIDs
        response.nextPageToken = page.nextPageToken ?? ""
        return response
    }
}
