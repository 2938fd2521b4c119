/// A project and one of its databases: `projects/{project}/databases/{database}`.
public struct DatabaseID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The project id, such as `demo-app`.
    public let project: String
    /// The database id; `(default)` unless a named database is used.
    public let database: String

    /// The id of the database every project has.
    public static let defaultDatabase = "(default)"

    /// Creates a database id, validating both ids.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for an empty id or one containing `/`.
    public init(project: String, database: String = DatabaseID.defaultDatabase) throws {
        for (kind, id) in [("project", project), ("database", database)] {
            guard !id.isEmpty, !id.utf8.contains(UInt8(ascii: "/")), id.utf8.count <= 1500 else {
                throw FirestoreError.invalidArgument("Invalid \(kind) id '\(id)'")
            }
        }
        self.project = project
        self.database = database
    }

    /// `projects/{project}/databases/{database}`.
    public var resourceName: String { "projects/\(project)/databases/\(database)" }

    public var description: String { resourceName }

    public static func < (lhs: DatabaseID, rhs: DatabaseID) -> Bool {
        let project = compareUTF8(lhs.project, rhs.project)
        return project != 0 ? project < 0 : compareUTF8(lhs.database, rhs.database) < 0
    }

    /// Ids are equal when their UTF-8 bytes are, as `<` and the key encoding see them (Swift's
    /// `String ==` would equate canonically equivalent spellings).
    public static func == (lhs: DatabaseID, rhs: DatabaseID) -> Bool {
        utf8Equal(lhs.project, rhs.project) && utf8Equal(lhs.database, rhs.database)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combineUTF8(project)
        hasher.combineUTF8(database)
    }
}
