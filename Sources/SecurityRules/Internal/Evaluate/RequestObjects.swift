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

/// The request of one decision, as the evaluation reads it. It borrows the caller's
/// `RulesRequest` (copying it would cost a retain per field at every decision), so it must not
/// outlive the call that made it.
final class PreparedRequest {
    private let requestAddress: UnsafePointer<RulesRequest>
    let method: RulesMethod
    let listConstraints: QueryConstraints?

    /// - Important: `request` must stay valid (and unchanged) for the life of the object.
    init(borrowing request: UnsafePointer<RulesRequest>, listConstraints: QueryConstraints? = nil) {
        requestAddress = request
        method = request.pointee.method
        self.listConstraints = listConstraints
    }

    /// The request.
    var request: RulesRequest {
        unsafeAddress { requestAddress }
    }

    var database: DatabaseID { request.database }

    /// The value of a resolved member chain, with its map when it is one (held by the value),
    /// for reading members without copying the value.
    struct CachedField {
        let value: RValue
        let map: Unmanaged<RMap>?
    }

    /// The values of resolved member chains, by field and phase: allocated on first use;
    /// `cachedFields` has a bit for each slot set (only those are initialized).
    @exclusivity(unchecked) private var fieldSlots: UnsafeMutablePointer<CachedField>?
    @exclusivity(unchecked) private var cachedFields: UInt64 = 0

    static let fieldSlotCount = 2 * RequestFieldNode.Field.allCases.count

    deinit {
        guard let fieldSlots else { return }
        var remaining = cachedFields
        while remaining != 0 {
            let slot = remaining.trailingZeroBitCount
            (fieldSlots + slot).deinitialize(count: 1)
            remaining &= remaining - 1
        }
        fieldSlots.deallocate()
    }

    /// The cached value of a field slot, computing it with `make` on first use.
    @inline(__always)
    func cachedField(_ slot: Int, _ make: () -> RValue) -> UnsafePointer<CachedField> {
        if cachedFields & (1 << UInt64(slot)) != 0, let fieldSlots { return UnsafePointer(fieldSlots + slot) }
        let value = make()
        var map: Unmanaged<RMap>?
        if case .map(let object) = value { map = Unmanaged.passUnretained(object) }
        let slots = fieldSlots ?? UnsafeMutablePointer<CachedField>.allocate(capacity: PreparedRequest.fieldSlotCount)
        fieldSlots = slots
        (slots + slot).initialize(to: CachedField(value: value, map: map))
        cachedFields |= 1 << UInt64(slot)
        return UnsafePointer(slots + slot)
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
