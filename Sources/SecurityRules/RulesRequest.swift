public import DocumentModel

/// A request for the rules to judge: who asks to do what to which document.
///
/// ```swift
/// let request = RulesRequest(
///     database: try DatabaseID(project: "demo"), path: try ResourcePath("users/alice"),
///     method: .create, auth: RulesAuth(uid: "alice"), time: now,
///     newResource: Document(name: name, fields: fields, createTime: now, updateTime: now))
/// ```
public struct RulesRequest: Sendable {
    /// How many distinct documents the rules may read (`get`, `exists`, `getAfter`,
    /// `existsAfter`) while judging a request.
    public enum AccessScope: Sendable, Hashable {
        /// A single-document read or write: 10 documents.
        case singleDocument
        /// A batched write, a transaction or a query: 20 documents.
        case multipleDocuments

        /// The number of distinct document reads allowed.
        public var limit: Int {
            switch self {
            case .singleDocument: 10
            case .multipleDocuments: 20
            }
        }
    }

    /// The database the request is in.
    public var database: DatabaseID
    /// The document path for `get`, `create`, `update` and `delete`; the path of the queried
    /// collection for `list` (for a collection group query, the parent path followed by the
    /// collection id).
    public var path: ResourcePath
    /// The operation.
    public var method: RulesMethod
    /// The signed-in user, or `nil` (`request.auth == null`).
    public var auth: RulesAuth?
    /// `request.time`: the time of the request (of the commit, for writes).
    public var time: Timestamp
    /// `resource`: the document before the request, `nil` if it does not exist. Unused for `list`.
    public var resource: Document?
    /// `request.resource`: the document as the write would leave it (`create`, `update`).
    public var newResource: Document?
    /// The query of a `list` request.
    public var query: RulesQuery?
    /// How many document reads the rules may make.
    public var accessScope: AccessScope
    /// Whether `request.resource` is built from the stored document: a write with an update
    /// mask or field transforms (server timestamps, increments...). Google's evaluator builds
    /// it only in its second phase, so its first phase does not know `request.resource`; this
    /// changes the denial message, never the verdict.
    public var newResourceDependsOnStoredDocument: Bool

    /// Creates a request.
    public init(
        database: DatabaseID, path: ResourcePath, method: RulesMethod, auth: RulesAuth? = nil, time: Timestamp,
        resource: Document? = nil, newResource: Document? = nil, query: RulesQuery? = nil,
        accessScope: AccessScope = .singleDocument, newResourceDependsOnStoredDocument: Bool = false
    ) {
        self.database = database
        self.path = path
        self.method = method
        self.auth = auth
        self.time = time
        self.resource = resource
        self.newResource = newResource
        self.query = query
        self.accessScope = accessScope
        self.newResourceDependsOnStoredDocument = newResourceDependsOnStoredDocument
    }
}
