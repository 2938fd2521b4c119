import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation

extension FirestoreAPI {
    /// `GetDocument`: one document, at the newest version, a read time or in a transaction; the
    /// rules' `get` must allow it.
    func getDocument(
        _ request: Google_Firestore_V1_GetDocumentRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_Document {
        let name = try seededDocument(request.name)
        let mask = request.hasMask ? try request.mask.fieldPathList() : nil
        let consistency: ReadConsistency
        switch request.consistencySelector {
        case nil: consistency = try ReadConsistency(store: store)
        case .transaction(let data): consistency = try ReadConsistency(store: store, transaction: data)
        case .readTime(let time): consistency = try ReadConsistency(store: store, readTime: time)
        }
        let (_, documents) = try await consistency.documents([name], in: store)
        try store.authorizeReads([name], documents: documents, as: context.identity)
        guard let document = documents[0] else { throw FirestoreAPI.notFound(name) }
        return document.proto(mask: mask)
    }

    /// `BatchGetDocuments`: several documents of one database at one consistent read time (or
    /// in a transaction, named or new), one response per requested name, in order. The rules'
    /// `get` must allow every one of them.
    func batchGetDocuments(
        _ request: Google_Firestore_V1_BatchGetDocumentsRequest, context: RequestContext
    ) async throws -> [Google_Firestore_V1_BatchGetDocumentsResponse] {
        RequestDocuments.current?.note(request.documents)
        let database = try seededDatabase(request.database)
        let names = try request.documents.map { text in
            let name = try seededDocument(text)
            guard name.databaseID == database else {
                throw FirestoreError.invalidArgument(
                    "Document \"\(text)\" is not in the database \"\(request.database)\" of the request")
            }
            return name
        }
        let mask = request.hasMask ? try request.mask.fieldPathList() : nil
        let consistency: ReadConsistency
        switch request.consistencySelector {
        case nil: consistency = try ReadConsistency(store: store)
        case .transaction(let data): consistency = try ReadConsistency(store: store, transaction: data)
        case .newTransaction(let options): consistency = try ReadConsistency(store: store, newTransaction: options)
        case .readTime(let time): consistency = try ReadConsistency(store: store, readTime: time)
        }
        let (time, documents) = try await consistency.documents(names, in: store)
        try store.authorizeReads(names, documents: documents, as: context.identity)
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

    /// `ListDocuments`: the documents directly in one collection (or, without a collection id,
    /// in every collection directly under the parent), in name order, a page at a time; with
    /// `show_missing`, also the documents that do not exist but have documents below them. The
    /// rules' `list` must allow it. In a read-write transaction the listed documents are locked.
    ///
    /// The only order is by name (Google's emulator refuses a descending one too).
    func listDocuments(
        _ request: Google_Firestore_V1_ListDocumentsRequest, context: RequestContext
    ) async throws -> Google_Firestore_V1_ListDocumentsResponse {
        let (database, parent) = try seededParent(request.parent)
        let order = try ListingOrder.parse(request.orderBy)
        if order != nil, request.showMissing {
            throw FirestoreError.invalidArgument("cannot specify an order when show_missing is true")
        }
        let consistency: ReadConsistency
        switch request.consistencySelector {
        case nil: consistency = try ReadConsistency(store: store)
        case .transaction(let data): consistency = try ReadConsistency(store: store, transaction: data)
        case .readTime(let time): consistency = try ReadConsistency(store: store, readTime: time)
        }
        let readTime = try consistency.resolvedReadTime(in: store)
        if let order {
            return try await listDocuments(request, ordered: order, database: database, parent: parent,
                                           consistency: consistency, readTime: readTime, context: context)
        }
        try authorizeListing(
            database, parent: parent, collectionID: request.collectionID, pageSize: Int(request.pageSize),
            as: context.identity)
        let page = try store.listDocuments(
            parent: parent, collectionID: request.collectionID, of: database, pageSize: Int(request.pageSize),
            pageToken: request.pageToken.isEmpty ? nil : request.pageToken, showMissing: request.showMissing,
            mask: request.hasMask ? try request.mask.fieldPathList() : nil, readTime: readTime)
        var response = Google_Firestore_V1_ListDocumentsResponse()
        var listed: [Document] = []
        response.documents = page.documents.map { entry in
            switch entry {
            case .document(let document):
                listed.append(document)
                return document.proto()
            case .missing(let name):
                var message = Google_Firestore_V1_Document()
                message.name = name.resourceName
                return message
            }
        }
        if let transaction = consistency.transaction {
            try await store.lockForTransaction(listed, transaction: transaction)
        }
        response.nextPageToken = page.nextPageToken ?? ""
        return response
    }

    /// A `ListDocuments` ordered by fields: the query over the collection with those orders (the
    /// rules' `list` judges it), a page at a time; a page token counts the documents before it.
    private func listDocuments(
        _ request: Google_Firestore_V1_ListDocumentsRequest, ordered order: ListingOrder, database: DatabaseID,
        parent: ResourcePath, consistency: ReadConsistency, readTime: Timestamp?, context: RequestContext
    ) async throws -> Google_Firestore_V1_ListDocumentsResponse {
        let offset = try request.pageToken.isEmpty ? 0 : ListingOrder.offset(of: request.pageToken, orderBy: request.orderBy)
        let pageSize = request.pageSize > 0 ? Int(request.pageSize) : nil
        let structured = StructuredQuery(
            select: request.hasMask ? try request.mask.fieldPathList() : nil,
            from: CollectionSelector(collectionID: request.collectionID), orderBy: order.orders, offset: offset,
            limit: pageSize.map { $0 + 1 })
        let result = try store.runQuery(
            Query(database: database, parent: parent, structured: structured), readTime: readTime, as: context.identity)
        var documents = result.documents
        var response = Google_Firestore_V1_ListDocumentsResponse()
        if let pageSize, documents.count > pageSize {
            documents.removeLast(documents.count - pageSize)
            response.nextPageToken = ListingOrder.pageToken(offset: offset + pageSize, orderBy: request.orderBy)
        }
        if let transaction = consistency.transaction {
            try await store.lockForTransaction(documents, transaction: transaction)
        }
        response.documents = documents.map { $0.proto() }
        return response
    }

    /// `ListCollectionIds`: the ids of the collections directly under a document or the
    /// database root that hold at least one document, in order, a page at a time. Only the
    /// admin may list them, as in Google's emulator.
    func listCollectionIDs(
        _ request: Google_Firestore_V1_ListCollectionIdsRequest, context: RequestContext
    ) throws -> Google_Firestore_V1_ListCollectionIdsResponse {
        let (database, parent) = try seededParent(request.parent)
        try FirestoreAPI.requireAdmin(context, for: "Metadata operations")
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
