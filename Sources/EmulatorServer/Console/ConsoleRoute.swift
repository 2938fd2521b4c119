import NIOHTTP1

/// What a request under `/ui` names in the console (see Docs/Console.md): the page, one of its
/// assets, or a console API endpoint. `nil` for a path outside `/ui`; `.notFound` for a path
/// inside it that names nothing (or a method other than `GET`).
enum ConsoleRoute: Equatable {
    /// `GET /ui`: redirect to `/ui/`.
    case redirectToRoot
    /// `GET /ui/` and the page's deep links (`/ui/firestore/...`, `/ui/rules/...`): `index.html`.
    case page
    /// `GET /ui/assets/{file}`.
    case asset(String)
    /// `GET /ui/api/overview`.
    case overview
    /// `GET /ui/api/rules/{project}`.
    case rules(project: String)
    /// `GET /ui/api/requests`.
    case requests
    /// `GET /ui/api/requests/{id}`.
    case request(id: Int64)
    /// `GET /ui/api/requests/events`.
    case requestEvents
    /// `GET /ui/api/listen`.
    case listen
    /// Anything else under `/ui`.
    case notFound

    /// The route of a request whose percent-decoded path segments are `segments`.
    init?(method: HTTPMethod, segments: [String]) {
        guard segments.first == "ui" else { return nil }
        guard method == .GET else {
            self = .notFound
            return
        }
        let rest = Array(segments.dropFirst())
        switch rest.first {
        case nil:
            self = .redirectToRoot
        case "" where rest.count == 1, "firestore", "rules":
            self = .page
        case "assets" where rest.count == 2:
            self = .asset(rest[1])
        case "api":
            self = ConsoleRoute(api: Array(rest.dropFirst()))
        default:
            self = .notFound
        }
    }

    private init(api segments: [String]) {
        switch segments {
        case ["overview"]: self = .overview
        case ["listen"]: self = .listen
        case ["requests"]: self = .requests
        case ["requests", "events"]: self = .requestEvents
        case let path where path.count == 2 && path[0] == "rules" && !path[1].isEmpty:
            self = .rules(project: path[1])
        case let path where path.count == 2 && path[0] == "requests":
            self = Int64(path[1]).map { .request(id: $0) } ?? .notFound
        default:
            self = .notFound
        }
    }
}
