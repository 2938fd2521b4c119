import DocumentModel

/// `resource`, `request.resource` and what `get()` returns: `__name__`, `data`, `id`.
final class DocumentObject: RObject, @unchecked Sendable {
    let document: Document
    private lazy var dataValue = RValue.map(RMap(fields: document.fields))

    init(_ document: Document) {
        self.document = document
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

/// `request.auth`: `uid` and `token`.
final class AuthObject: RObject, @unchecked Sendable {
    let auth: RulesAuth
    static let keys = ["token", "uid"]
    var keys: [String] { AuthObject.keys }
    private lazy var tokenValue = RValue.map(RMap(fields: auth.token))

    init(_ auth: RulesAuth) {
        self.auth = auth
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
final class QueryObject: RObject, @unchecked Sendable {
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

/// The `request` variable. Its fields are built when first read.
final class RequestObject: RObject, @unchecked Sendable {
    let request: RulesRequest
    let firstPhase: Bool

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

    private lazy var authValue: RValue = request.auth.map { .map(RMap(object: AuthObject($0))) } ?? .null

    private lazy var newResourceValue: RValue =
        switch request.method {
        case .create, .update:
            firstPhase && request.newResourceDependsOnStoredDocument
                ? .error(RError("", kind: .unknown)) : DocumentObject.value(request.newResource)
        default:
            .null
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

final class PreparedRequest {
    let request: RulesRequest
    let method: RulesMethod
    let database: DatabaseID
    let listConstraints: QueryConstraints?

    init(_ request: RulesRequest, listConstraints: QueryConstraints? = nil) {
        self.request = request
        method = request.method
        database = request.database
        self.listConstraints = listConstraints
    }

    /// The values of resolved member chains, by field and phase (behind a pointer: read at
    /// every use, where a class property would pay for exclusivity checks).
    /// The cache: a bit mask of the slots set, then the slots (only those set are initialized).
    struct FieldCache {
        var set: UInt64 = 0
        var slots: (
            RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue,
            RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue, RValue
        ) = (
            .null, .null, .null, .null, .null, .null, .null, .null, .null, .null, .null, .null,
            .null, .null, .null, .null, .null, .null, .null, .null, .null, .null, .null, .null
        )
    }

    let fieldCache: UnsafeMutablePointer<FieldCache> = {
        let cache = UnsafeMutablePointer<FieldCache>.allocate(capacity: 1)
        cache.initialize(to: FieldCache())
        return cache
    }()

    deinit {
        fieldCache.deinitialize(count: 1)
        fieldCache.deallocate()
    }

    /// `request`, built on first use.
    lazy var requestValue: RValue = .map(RMap(object: RequestObject(request)))

    /// `request` in the first phase (without `request.resource` when it depends on the stored document).
    lazy var firstPhaseRequestValue: RValue =
        request.newResourceDependsOnStoredDocument
        ? .map(RMap(object: RequestObject(request, firstPhase: true))) : requestValue

    /// `resource`, built on first use.
    lazy var resourceValue: RValue =
        method == .list
        ? .map(RMap(object: QueryResourceObject(listConstraints ?? QueryConstraints())))
        : DocumentObject.value(request.resource)
}
