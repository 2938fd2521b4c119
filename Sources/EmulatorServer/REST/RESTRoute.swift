import DocumentModel
import NIOHTTP1

/// What an HTTP request's method and path name: an admin endpoint, a document resource, or a
/// custom method (`...documents:commit`). `nil` for anything else, answered 404 `Not Found` as
/// Google's emulator answers it (also for a known path with the wrong method).
enum RESTRoute: Equatable {
    /// `GET /`: the emulator's health check.
    case health
    /// `DELETE /emulator/v1/projects/{p}/databases/{d}/documents[/{path}]`: clear data.
    case clear(DatabaseID, ResourcePath)
    /// `PUT /emulator/v1/projects/{p}:securityRules`, `GET .../{p}:ruleCoverage[.html]`: the
    /// project and the endpoint (`securityRules`, `ruleCoverage`, `ruleCoverage.html`).
    case rulesAdmin(project: String, endpoint: String)
    /// `POST /emulator/v1/projects/{p}:export`: an export of the database named in the body.
    case export(project: String)
    /// `GET .../documents/{document}`.
    case getDocument(name: String)
    /// `GET .../documents[/{document}]/{collection}`.
    case listDocuments(parent: String, collectionID: String)
    /// `POST .../documents[/{document}]/{collection}`.
    case createDocument(parent: String, collectionID: String)
    /// `PATCH .../documents/{document}`.
    case updateDocument(name: String)
    /// `DELETE .../documents/{document}`.
    case deleteDocument(name: String)
    /// `POST .../documents[/{document}]:{method}`: `database` is the database's name, `parent`
    /// the documents root or the document the method applies to.
    case method(String, database: String, parent: String)

    /// The custom methods of Firestore's REST API.
    static let methods: Set<String> = [
        "batchGet", "commit", "batchWrite", "beginTransaction", "rollback", "runQuery", "runAggregationQuery",
        "listCollectionIds", "partitionQuery", "listen", "write", "executePipeline",
    ]

    init?(method: HTTPMethod, segments: [String]) {
        switch segments.first {
        case "" where segments.count == 1:
            guard method == .GET else { return nil }
            self = .health
        case "emulator":
            self.init(adminMethod: method, segments: Array(segments.dropFirst()))
        case "v1":
            self.init(apiMethod: method, segments: Array(segments.dropFirst()))
        default:
            return nil
        }
    }

    private init?(adminMethod method: HTTPMethod, segments: [String]) {
        guard segments.count >= 3, segments[0] == "v1", segments[1] == "projects" else { return nil }
        if segments.count == 3 {
            let parts = segments[2].split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            switch (method, parts[1]) {
            case (.PUT, "securityRules"), (.GET, "ruleCoverage"), (.GET, "ruleCoverage.html"):
                self = .rulesAdmin(project: parts[0], endpoint: parts[1])
            case (.POST, "export"):
                self = .export(project: parts[0])
            default:
                return nil
            }
            return
        }
        guard method == .DELETE, segments.count >= 6, segments[3] == "databases", segments[5] == "documents",
            let database = try? DatabaseID(project: segments[2], database: segments[4]),
            let path = try? ResourcePath(segments: Array(segments.dropFirst(6)))
        else { return nil }
        self = .clear(database, path)
    }

    private init?(apiMethod method: HTTPMethod, segments: [String]) {
        guard segments.count >= 5, segments[0] == "projects", segments[2] == "databases" else { return nil }
        let database = "projects/\(segments[1])/databases/\(segments[3])"
        var path = Array(segments.dropFirst(4))
        // A custom method is the text after the last ':' of the last segment, if it names one.
        if method == .POST, let last = path.last, let colon = last.lastIndex(of: ":"),
            RESTRoute.methods.contains(String(last[last.index(after: colon)...]))
        {
            path[path.count - 1] = String(last[..<colon])
            guard path[0] == "documents", path.count % 2 == 1 else { return nil }
            self = .method(
                String(last[last.index(after: colon)...]), database: database,
                parent: database + "/" + path.joined(separator: "/"))
            return
        }
        guard path[0] == "documents", path.count >= 2 else { return nil }
        let name = database + "/" + path.joined(separator: "/")
        let isDocument = path.count % 2 == 1
        switch (method, isDocument) {
        case (.GET, true): self = .getDocument(name: name)
        case (.PATCH, true): self = .updateDocument(name: name)
        case (.DELETE, true): self = .deleteDocument(name: name)
        case (.GET, false), (.POST, false):
            let parent = database + "/" + path.dropLast().joined(separator: "/")
            self =
                method == .GET
                ? .listDocuments(parent: parent, collectionID: path[path.count - 1])
                : .createDocument(parent: parent, collectionID: path[path.count - 1])
        default:
            return nil
        }
    }
}
