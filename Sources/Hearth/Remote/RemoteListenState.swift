import DocumentModel
import FirestoreProto
import FirestoreWire

/// Follows one target of a `Listen` stream as the official clients do: documents accumulate
/// from `document_change`, `document_delete` and `document_remove`; once the target is
/// CURRENT, each global NO_CHANGE with a read time is a consistent snapshot, delivered with the
/// documents in the query's order (and within its limit).
struct RemoteListenState {
    static let targetID: Int32 = 1

    let target: ListenTarget
    private var documents: [String: Document] = [:]
    private var isCurrent = false
    private var orders: [Order] = []
    private var limit: Int?

    init(target: ListenTarget) {
        self.target = target
        if case .query(let query) = target {
            orders = ImpliedOrders.orders(
                explicit: query.structured.orderBy, filters: query.structured.filter.map { [$0] } ?? [])
            limit = query.structured.limit
        }
    }

    /// The request that adds `target` to a `Listen` stream.
    static func request(for target: ListenTarget, in database: DatabaseID) -> Google_Firestore_V1_ListenRequest {
        var request = Google_Firestore_V1_ListenRequest()
        request.database = database.resourceName
        request.addTarget = self.target(for: target)
        return request
    }

    /// The `Target` message to add.
    static func target(for target: ListenTarget) -> Google_Firestore_V1_Target {
        var message = Google_Firestore_V1_Target()
        message.targetID = targetID
        switch target {
        case .document(let name):
            var documents = Google_Firestore_V1_Target.DocumentsTarget()
            documents.documents = [name.resourceName]
            message.documents = documents
        case .query(let query):
            var queryTarget = Google_Firestore_V1_Target.QueryTarget()
            queryTarget.parent = query.protoParent
            queryTarget.structuredQuery = query.structured.proto
            message.query = queryTarget
        }
        return message
    }

    /// Applies one response; returns a snapshot when the response completes a consistent one.
    ///
    /// - Throws: `FirestoreError` when the server removes the target with a cause.
    mutating func apply(_ response: Google_Firestore_V1_ListenResponse) throws -> ListenResult? {
        switch response.responseType {
        case .targetChange(let change):
            switch change.targetChangeType {
            case .remove:
                let code = FirestoreError.Code(rawValue: Int(change.cause.code)) ?? .unknown
                throw FirestoreError(code, change.cause.message)
            case .reset:
                documents = [:]
                isCurrent = false
            case .current:
                isCurrent = true
            case .noChange where change.targetIds.isEmpty && change.hasReadTime && isCurrent:
                return ListenResult(readTime: try Timestamp(proto: change.readTime), documents: ordered())
            default:
                break
            }
        case .documentChange(let change):
            if change.targetIds.contains(Self.targetID) {
                documents[change.document.name] = try Document(proto: change.document)
            } else if change.removedTargetIds.contains(Self.targetID) {
                documents[change.document.name] = nil
            }
        case .documentDelete(let delete):
            documents[delete.document] = nil
        case .documentRemove(let remove):
            documents[remove.document] = nil
        case .filter, nil:
            break
        }
        return nil
    }

    private func ordered() -> [Document] {
        let sorted = documents.values.sorted { ImpliedOrders.precedes($0, $1, orders: orders) }
        guard let limit else { return sorted }
        return Array(sorted.prefix(limit))
    }
}
