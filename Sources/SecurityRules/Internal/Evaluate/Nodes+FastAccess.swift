/// A member chain on `request` or `resource` that the compiler resolved (`request.auth.uid`,
/// `request.resource.data`, `resource.data`): evaluated once per request and phase, with the
/// same results and errors as the chain of member accesses it stands for. Used when coverage
/// is off (coverage reports every link of the chain).
final class RequestFieldNode: Node, @unchecked Sendable {
    enum Field: Int, CaseIterable {
        case auth, authUID, authToken, time, method, path, newResource, newData, query
        case resource, resourceData

        /// The chain of names from `request` or `resource`.
        var chain: [String] {
            switch self {
            case .auth: ["auth"]
            case .authUID: ["auth", "uid"]
            case .authToken: ["auth", "token"]
            case .time: ["time"]
            case .method: ["method"]
            case .path: ["path"]
            case .newResource: ["resource"]
            case .newData: ["resource", "data"]
            case .query: ["query"]
            case .resource: []
            case .resourceData: ["data"]
            }
        }

        var onResource: Bool { self == .resource || self == .resourceData }

        static func match(root: String, names: [String]) -> Field? {
            allCases.first { ($0.onResource ? "resource" : "request") == root && $0.chain == names && !($0 == .resource) }
        }
    }

    let field: Field

    init(field: Field, span: SourceSpan) {
        self.field = field
        super.init(span: span, cost: Int32(field.chain.count) + 1)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let value = context.request.field(field, phase: context.phase, span: span)
        if case .error(let error) = value, error.kind == .unknown { context.touchedUnknown = true }
        return value
    }
}

extension PreparedRequest {
    /// The value of a resolved chain: what the member accesses it stands for give, built
    /// directly from the request.
    func field(_ field: RequestFieldNode.Field, phase: EvalContext.Phase, span: SourceSpan) -> RValue {
        let slot = field.rawValue + (phase == .first ? RequestFieldNode.Field.allCases.count : 0)
        return cachedField(slot) { compute(field, phase: phase, span: span) }
    }

    private func compute(_ field: RequestFieldNode.Field, phase: EvalContext.Phase, span: SourceSpan) -> RValue {
        var unknown: RValue { .error(RError("", kind: .unknown, span: span)) }
        switch field {
        case .auth:
            return request.auth.map { .map(RMap(object: AuthObject($0))) } ?? .null
        case .authUID:
            guard let uid = request.auth?.uid else { return RError.nullValue(span: span) }
            return .string(uid)
        case .authToken:
            guard let auth = request.auth else { return RError.nullValue(span: span) }
            return .map(RMap(fields: auth.token))
        case .time:
            return .timestamp(request.time)
        case .method:
            return .string(method.rawValue)
        case .path:
            return .path(RPath(database: request.database, path: request.path))
        case .newResource, .newData:
            switch method {
            case .get, .list:
                return RError.undefinedProperty("resource", span: span)
            case .delete:
                return field == .newData ? RError.nullValue(span: span) : .null
            case .create, .update:
                if phase == .first && request.newResourceDependsOnStoredDocument { return unknown }
                guard request.newResource != nil else {
                    return field == .newData ? RError.nullValue(span: span) : .null
                }
                // Reading only `fields` copies less than taking the document.
                if field == .newData, let fields = request.newResource?.fields { return .map(RMap(fields: fields)) }
                return DocumentObject.value(request.newResource)
            }
        case .query:
            guard method == .list else { return RError.undefinedProperty("query", span: span) }
            return request.query.map { .map(RMap(object: QueryObject($0))) } ?? .null
        case .resource:
            if phase == .first && method != .list { return unknown }
            return resourceValue
        case .resourceData:
            if phase == .first && method != .list { return unknown }
            if method == .list { return MemberNode.member(resourceValue, "data", span: span) }
            guard let document = request.resource else { return RError.nullValue(span: span) }
            return .map(RMap(fields: document.fields))
        }
    }
}

/// `request.auth == null` (or `!=`), decided without building `request.auth`.
final class AuthIsNullNode: Node, @unchecked Sendable {
    let negated: Bool

    init(negated: Bool, span: SourceSpan) {
        self.negated = negated
        super.init(span: span, cost: 4)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        .bool((context.request.request.auth == nil) != negated)
    }
}
