import DocumentModel

/// `resource`, `request.resource` and what `get()` returns: `__name__`, `data`, `id`.
/// Immutable, so shared safely: `data` is built up front (one map over the document's fields;
/// nearly every use of a document reads it).
final class DocumentObject: RObject {
    let document: Document
    private let dataValue: RValue

    init(_ document: Document) {
        self.document = document
        dataValue = .map(RMap(fields: document.fields))
    }

    static let keys = ["__name__", "data", "id"]
    var keys: [String] { DocumentObject.keys }

    func value(for key: String) -> RValue? {
        switch key {
        case "data": dataValue
        case "id": .string(document.name.documentID)
        case "__name__": .path(RPath(documentName: document.name))
        default: nil
        }
    }

    static func value(_ document: Document?) -> RValue {
        guard let document else { return .null }
        return .map(RMap(object: DocumentObject(document)))
    }
}

/// `request.auth`: `uid` and `token`. Immutable, so shared safely: `token` is built up front
/// (one map over the token's claims).
final class AuthObject: RObject {
    let auth: RulesAuth
    static let keys = ["token", "uid"]
    var keys: [String] { AuthObject.keys }
    private let tokenValue: RValue

    init(_ auth: RulesAuth) {
        self.auth = auth
        tokenValue = .map(RMap(fields: auth.token))
    }

    func value(for key: String) -> RValue? {
        switch key {
        case "uid": .string(auth.uid)
        case "token": tokenValue
        default: nil
        }
    }
}

/// `request.query`: `limit`, `offset`, `orderBy`.
final class QueryObject: RObject {
    let query: RulesQuery
    static let keys = ["limit", "offset", "orderBy"]
    var keys: [String] { QueryObject.keys }

    init(_ query: RulesQuery) {
        self.query = query
    }

    func value(for key: String) -> RValue? {
        switch key {
        case "limit": query.limit.map { .int($0) } ?? .null
        case "offset": .int(query.offset)
        case "orderBy":
            .map(
                RMap(
                    entries: query.orderBy.map {
                        RMap.Entry(key: $0.field.description, value: .string($0.direction == .ascending ? "ASC" : "DESC"))
                    }))
        default: nil
        }
    }
}

/// The `request` variable. Its `auth` and `resource` (each a few objects) are built when first
/// read, once, also when several threads read them first at the same time.
final class RequestObject: RObject {
    let request: RulesRequest
    let firstPhase: Bool
    private let authCache = OnceValue<RValue>()
    private let newResourceCache = OnceValue<RValue>()

    init(_ request: RulesRequest, firstPhase: Bool = false) {
        self.request = request
        self.firstPhase = firstPhase
    }

    static let writeKeys = ["auth", "method", "path", "resource", "time", "writeFields"]
    static let getKeys = ["auth", "method", "path", "time"]
    static let listKeys = ["auth", "method", "path", "query", "time"]

    var keys: [String] {
        switch request.method {
        case .create, .update, .delete: RequestObject.writeKeys
        case .get: RequestObject.getKeys
        case .list: RequestObject.listKeys
        }
    }

    private var authValue: RValue {
        authCache.value { request.auth.map { .map(RMap(object: AuthObject($0))) } ?? .null }
    }

    private var newResourceValue: RValue {
        newResourceCache.value {
            switch request.method {
            case .create, .update:
                firstPhase && request.newResourceDependsOnStoredDocument
                    ? .error(RError("", kind: .unknown)) : DocumentObject.value(request.newResource)
            default:
                .null
            }
        }
    }

    func value(for key: String) -> RValue? {
        let method = request.method
        switch key {
        case "auth": return authValue
        case "method": return .string(method.rawValue)
        case "path": return .path(RPath(database: request.database, path: request.path))
        case "time": return .timestamp(request.time)
        case "resource": return method.isWrite ? newResourceValue : nil
        case "writeFields": return method.isWrite ? .null : nil
        case "query":
            guard method == .list else { return nil }
            return request.query.map { .map(RMap(object: QueryObject($0))) } ?? .null
        default: return nil
        }
    }
}
