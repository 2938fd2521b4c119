/// What a listener watches: one document, or the results of a query.
public enum ListenTarget: Sendable, Hashable {
    /// One document, present or not.
    case document(DocumentName)
    /// The results of a query, in the query's order (limits and cursors included).
    case query(Query)

    /// The database the target reads.
    public var database: DatabaseID {
        switch self {
        case .document(let name): name.databaseID
        case .query(let query): query.database
        }
    }
}
