import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation

/// A Listen stream's target as a client adds it (`google.firestore.v1.Target`), decoded: the
/// store targets it is made of (one per document of a documents target, or one query) and
/// where it resumes from.
struct WatchTarget: Sendable {
    /// What the target watches.
    enum Kind: Sendable {
        /// Named documents, each watched whether it exists or not.
        case documents
        /// The results of a query.
        case query
    }

    let kind: Kind
    /// The store targets: the documents in request order, or the one query.
    let parts: [ListenTarget]
    /// The store version to resume from (the `resume_token`'s, or the `read_time`'s), if any.
    let resumeVersion: Int64?
    /// Whether the client asked to resume at all (with a token Hearth may not know).
    let asksToResume: Bool
    /// Whether the target is removed once it is current.
    let once: Bool

    /// Decodes `target` for a stream on `database`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for a target without a type, malformed names
    ///   or queries, and documents outside `database`.
    init(_ target: Google_Firestore_V1_Target, in database: DatabaseID) throws {
        switch target.targetType {
        case nil:
            throw FirestoreError.invalidArgument("The target \(target.targetID) has neither documents nor a query")
        case .documents(let documents):
            guard !documents.documents.isEmpty else {
                throw FirestoreError.invalidArgument("The documents target \(target.targetID) names no documents")
            }
            kind = .documents
            var seen: Set<DocumentName> = []
            parts = try documents.documents.compactMap { text in
                let name = try ResourceName.document(text)
                try WatchTarget.require(name.databaseID, is: database, text)
                return seen.insert(name).inserted ? .document(name) : nil
            }
        case .query(let query):
            let (parentDatabase, parent) = try ResourceName.parent(query.parent)
            try WatchTarget.require(parentDatabase, is: database, query.parent)
            guard case .structuredQuery(let structured) = query.queryType else {
                throw FirestoreError.invalidArgument("The query target \(target.targetID) has no structured_query")
            }
            kind = .query
            parts = [
                .query(Query(database: database, parent: parent, structured: try StructuredQuery(proto: structured)))
            ]
        }
        switch target.resumeType {
        case nil:
            resumeVersion = nil
            asksToResume = false
        case .resumeToken(let token):
            resumeVersion = ListenResumeToken.decode(token)
            asksToResume = !token.isEmpty
        case .readTime(let time):
            resumeVersion = try Timestamp(proto: time).microsecondsSinceEpoch
            asksToResume = true
        }
        once = target.once
    }

    private static func require(_ found: DatabaseID, is database: DatabaseID, _ text: String) throws {
        guard found == database else {
            throw FirestoreError.invalidArgument(
                "\"\(text)\" is not in the database \"\(database.resourceName)\" of the stream")
        }
    }
}
