/// The full name of a document: its database and its path,
/// `projects/{p}/databases/{d}/documents/{path}`.
public struct DocumentName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The database that holds the document.
    public let databaseID: DatabaseID
    /// The document's path inside the database (an even number of segments).
    public let path: ResourcePath

    /// Creates a document name.
    ///
    /// - Throws: `FirestoreError.invalidArgument` if `path` names a collection rather than a document.
    public init(_ databaseID: DatabaseID, _ path: ResourcePath) throws {
        guard path.isDocument else {
            throw FirestoreError.invalidArgument(
                "'\(path)' is not a document path: a document path has an even number of segments")
        }
        self.databaseID = databaseID
        self.path = path
    }

    /// Parses a path such as `users/alice` in `databaseID`.
    public init(_ databaseID: DatabaseID, _ path: String) throws {
        try self.init(databaseID, try ResourcePath(path))
    }

    /// Parses a full resource name, `projects/p/databases/d/documents/users/alice`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the text when it is not a document name.
    public init(resourceName: String) throws {
        // Split on the scalar '/', not on Characters: an id may begin with a combining mark,
        // which Swift joins to the preceding '/' in one Character.
        let parts = resourceName.unicodeScalars.split(separator: "/", maxSplits: 5, omittingEmptySubsequences: false)
            .map(String.init)
        guard parts.count == 6, parts[0] == "projects", parts[2] == "databases", parts[4] == "documents" else {
            throw FirestoreError.invalidArgument(
                "Invalid document name '\(resourceName)': expected projects/{p}/databases/{d}/documents/{path}")
        }
        try self.init(
            try DatabaseID(project: parts[1], database: parts[3]), parts[5])
    }

    /// The document id, the path's last segment.
    public var documentID: String { path.lastSegment }

    /// The path of the collection that holds the document.
    public var collectionPath: ResourcePath { path.parent ?? .root }

    /// The collection id (the collection group) of the document.
    public var collectionID: String { collectionPath.lastSegment }

    /// `projects/{p}/databases/{d}/documents/{path}`.
    public var resourceName: String { "\(databaseID.resourceName)/documents/\(path)" }

    public var description: String { resourceName }

    public static func < (lhs: DocumentName, rhs: DocumentName) -> Bool {
        lhs.databaseID != rhs.databaseID ? lhs.databaseID < rhs.databaseID : lhs.path < rhs.path
    }
}
