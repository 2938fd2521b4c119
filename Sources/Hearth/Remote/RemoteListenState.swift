import DocumentModel
import FirestoreProto
import FirestoreWire
import Foundation

/// Follows one target of `Listen` streams as the official clients do: documents accumulate
/// from `document_change`, `document_delete` and `document_remove`; once the target is
/// CURRENT, each global NO_CHANGE with a read time is a consistent snapshot.
///
/// The state outlives a stream: a new stream adds the target with the last resume token, and
/// the server then sends only what changed since (or a RESET, after which the target starts
/// afresh). It can also start from a token and documents kept in the local cache by an earlier
/// process (`WatchResume`). After a resume, the server's existence filter (its count of the
/// target's documents) is checked: a different count starts the target afresh.
struct RemoteListenState {
    static let targetID: Int32 = 1

    let target: ListenTarget
    private var documents: [String: Document] = [:]
    private var isCurrent = false
    /// The last resume token the server gave (empty: none yet).
    private(set) var resumeToken: [UInt8] = []
    /// Documents learned about outside the target since the last snapshot.
    private var observed: [DocumentName: Document?] = [:]
    /// Whether the current stream resumed from a token (so its documents were not all sent).
    private var isResumed = false

    /// Follows `target`, from `resume` when given: its token and documents, as an earlier
    /// stream (of this process or an earlier one) left them.
    init(target: ListenTarget, resume: WatchResume? = nil) {
        self.target = target
        if let resume {
            resumeToken = resume.resumeToken
            for document in resume.documents { documents[document.name.resourceName] = document }
        }
    }

    /// The request that adds the target to a new `Listen` stream, resuming where the last one
    /// left off when there is a token.
    mutating func startStream(in database: DatabaseID) -> Google_Firestore_V1_ListenRequest {
        isCurrent = false
        isResumed = !resumeToken.isEmpty
        var message = Self.target(for: target)
        if isResumed { message.resumeToken = Data(resumeToken) }
        var request = Google_Firestore_V1_ListenRequest()
        request.database = database.resourceName
        request.addTarget = message
        return request
    }

    /// Forgets the resume token and the documents, so the next stream starts afresh.
    mutating func forgetResumeToken() {
        resumeToken = []
        documents = [:]
        observed = [:]
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
    mutating func apply(_ response: Google_Firestore_V1_ListenResponse) throws -> WatchSnapshot? {
        switch response.responseType {
        case .targetChange(let change):
            if !change.resumeToken.isEmpty, change.targetIds.isEmpty || change.targetIds.contains(Self.targetID) {
                resumeToken = Array(change.resumeToken)
            }
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
                let snapshot = WatchSnapshot(
                    readTime: try Timestamp(proto: change.readTime), documents: Array(documents.values),
                    resumeToken: resumeToken, observed: observed)
                observed = [:]
                return snapshot
            default:
                break
            }
        case .documentChange(let change):
            let document = try Document(proto: change.document)
            if change.targetIds.contains(Self.targetID) {
                documents[change.document.name] = document
            } else if change.removedTargetIds.contains(Self.targetID) {
                documents[change.document.name] = nil
                observed[document.name] = .some(document)
            }
        case .documentDelete(let delete):
            documents[delete.document] = nil
            if let name = try? DocumentName(resourceName: delete.document) { observed[name] = .some(nil) }
        case .documentRemove(let remove):
            documents[remove.document] = nil
        case .filter(let filter) where filter.targetID == Self.targetID && isResumed:
            // As the SDKs do: a resumed target whose document count is not the server's kept
            // documents it no longer holds (a token from a server whose data was replaced).
            if Int(filter.count) != documents.count {
                let held = documents.count
                forgetResumeToken()
                throw ExistenceFilterMismatch(expected: Int(filter.count), held: held)
            }
        case .filter, nil:
            break
        }
        return nil
    }
}

/// A resumed target held other documents than the server's count: the stream must start again
/// without a resume token (the state has already forgotten it).
struct ExistenceFilterMismatch: Error {
    let expected: Int
    let held: Int
}
