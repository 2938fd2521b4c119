import DocumentModel
import DocumentStore

/// `GET /ui/api/overview`: the server's address and its projects (those with data or rules,
/// and the configured default project), each with its databases, their document counts and
/// its rules' summary (see `ConsoleRulesReport`).
///
/// Databases come from one seek per database in the store's keys; each count reads one key per
/// document without decoding it (`DocumentStore.documentCount(in:)`), the cheapest count the
/// store has.
struct ConsoleOverview {
    let store: DocumentStore
    let rules: ProjectRules
    let defaultProject: String?

    /// The overview's JSON, with `address` as the server's own.
    ///
    /// - Throws: `FirestoreError` (`.dataLoss`) when the store cannot be read.
    func json(address: ServerAddress?) throws -> JSONValue {
        var databases: [String: [(id: String, documents: Int)]] = [:]
        for database in try store.databaseIDs() {
            let count = try store.documentCount(in: database)
            guard count > 0 else { continue }
            databases[database.project, default: []].append((database.database, count))
        }
        var projects = Set(databases.keys).union(rules.projectsWithRules)
        if let defaultProject { projects.insert(defaultProject) }
        let listed = projects.sorted().map { project in
            let projectDatabases = databases[project] ?? [(DatabaseID.defaultDatabase, 0)]
            return JSONValue.object([
                ConsoleJSON.member("id", .string(project)),
                ConsoleJSON.member(
                    "databases",
                    .array(projectDatabases.map { database in
                        .object([
                            ConsoleJSON.member("id", .string(database.id)),
                            ConsoleJSON.member("documents", JSONValue(Int64(database.documents))),
                        ])
                    })),
                ConsoleJSON.member("rules", ConsoleRulesReport(project: project, rules: rules, store: store).summary()),
            ])
        }
        return .object([
            ConsoleJSON.member("host", address.map { .string($0.host) } ?? .null),
            ConsoleJSON.member("port", address.map { JSONValue(Int64($0.port)) } ?? .null),
            ConsoleJSON.member("projects", .array(listed)),
        ])
    }
}
