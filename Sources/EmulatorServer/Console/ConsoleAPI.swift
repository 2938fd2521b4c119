import DocumentModel
import DocumentStore
import FirestoreWire
import NIOHTTP1

/// Answers the requests under `/ui` (see Docs/Console.md): the page and its assets, the console's
/// JSON API and its Server-Sent Events streams. The console acts as the owner and asks for no
/// authorization; its requests are not logged.
struct ConsoleAPI: Sendable {
    let api: FirestoreAPI
    let rules: ProjectRules
    let log: RequestLog
    /// The project the overview always lists.
    let defaultProject: String?

    /// The reply to `request`, whose path is `route`; failures are Google's JSON error bodies.
    func respond(to route: ConsoleRoute, _ request: HTTPRequest) async -> HTTPReply {
        do {
            return try await reply(to: route, request)
        } catch {
            return .response(.error(WireStatus(error)))
        }
    }

    private func reply(to route: ConsoleRoute, _ request: HTTPRequest) async throws -> HTTPReply {
        var query = QueryParameters(request.query)
        switch route {
        case .redirectToRoot:
            return .response(HTTPResponse(status: .movedPermanently, contentType: nil, body: [], location: "/ui/"))
        case .page:
            return .response(ConsolePage.response(for: "index.html") ?? .notFound)
        case .asset(let file):
            return .response(ConsolePage.response(for: file) ?? .notFound)
        case .notFound:
            return .response(.notFound)
        case .overview:
            try query.finish()
            let overview = ConsoleOverview(store: api.store, rules: rules, defaultProject: defaultProject)
            let json = try await api.store.reading { try overview.json(address: request.serverAddress) }
            return .response(.json(json))
        case .rules(let project):
            try query.finish()
            _ = try DatabaseID(project: project)
            return .response(.json(ConsoleRulesReport(project: project, rules: rules, store: api.store).full()))
        case .requests:
            let limit = try query.int32("limit").map(Int.init) ?? RequestLog.defaultCapacity
            try query.finish()
            guard limit > 0 else { throw FirestoreError.invalidArgument("'limit' must be positive, it is \(limit)") }
            let entries = log.last(min(limit, RequestLog.defaultCapacity)).map(ConsoleJSON.entry)
            return .response(.json(.object([ConsoleJSON.member("entries", .array(entries))])))
        case .request(let id):
            try query.finish()
            guard let logged = log.request(id: id) else {
                throw FirestoreError(.notFound, "No request \(id) in the log (it keeps the last \(log.capacity))")
            }
            return .response(.json(ConsoleJSON.entryWithEvaluation(logged)))
        case .requestEvents:
            try query.finish()
            return .eventStream(RequestEventStream(log: log).eventStream)
        case .listen:
            guard let databaseText = try query.string("database"), let pathText = try query.string("path") else {
                throw FirestoreError.invalidArgument("The listen endpoint takes 'database' and 'path'")
            }
            try query.finish()
            let database = try api.seededDatabase(databaseText)
            let path = try ResourcePath(pathText)
            return .eventStream(try ConsoleListenStream(store: api.store, database: database, path: path).eventStream)
        }
    }
}
