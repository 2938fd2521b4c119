import DocumentModel

/// A member chain on `request` or `resource` that the compiler resolved (`request.auth.uid`,
/// `request.resource.data`, `resource.data`): evaluated once per request and phase, with the
/// same results and errors as the chain of member accesses it stands for. Used when coverage
/// is off (coverage reports every link of the chain).
final class RequestFieldNode: Node {
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
        cachedField(slot(field, phase)) { compute(field, phase: phase, span: span) }.value
    }

    /// The map `field(_:phase:span:)` gives, without copying it; `nil` when it gives another
    /// value. Valid while the request is.
    func fieldMap(_ field: RequestFieldNode.Field, phase: EvalContext.Phase, span: SourceSpan) -> Unretained<RMap>? {
        cachedFieldMap(slot(field, phase)) { compute(field, phase: phase, span: span) }
    }

    @inline(__always)
    private func slot(_ field: RequestFieldNode.Field, _ phase: EvalContext.Phase) -> Int {
        field.rawValue + (phase == .first ? RequestFieldNode.Field.allCases.count : 0)
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

/// `request.resource.data.name` and the like: a member of a resolved chain whose value is a map
/// is read in the request's cache, without copying the map; otherwise as a `MemberNode` over a
/// `RequestFieldNode`, with the same results and expression count. Used when coverage is off.
final class RequestFieldMemberNode: Node {
    let field: RequestFieldNode.Field
    let fieldSpan: SourceSpan
    let name: String

    init(field: RequestFieldNode.Field, fieldSpan: SourceSpan, name: String, span: SourceSpan) {
        self.field = field
        self.fieldSpan = fieldSpan
        self.name = name
        super.init(span: span, cost: Int32(field.chain.count) + 2)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let result: RValue
        if let map = context.request.fieldMap(field, phase: context.phase, span: fieldSpan) {
            result = map.with { $0[name] } ?? RError.undefinedProperty(name, span: span)
        } else {
            let value = context.request.field(field, phase: context.phase, span: fieldSpan)
            if case .error(let error) = value, error.kind == .unknown { context.touchedUnknown = true }
            result = MemberNode.member(value, name, span: span)
        }
        if case .error(let error) = result, error.kind == .unknown { context.touchedUnknown = true }
        return result
    }
}

/// `request.auth == null` (or `!=`), decided without building `request.auth`.
final class AuthIsNullNode: Node {
    let negated: Bool

    init(negated: Bool, span: SourceSpan) {
        self.negated = negated
        super.init(span: span, cost: 4)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        .bool((context.request.request.auth == nil) != negated)
    }
}

/// `name.member` where `name` is a function parameter or `let` (`data.email`): a map in the
/// slot is read in place, without copying it; any other value goes the way of a `SlotNode`
/// under a `MemberNode`, with the same results and expression count. Used when coverage is
/// off (coverage reports the name and the member apart).
final class SlotMemberNode: Node {
    let index: Int
    let name: String

    init(index: Int, name: String, span: SourceSpan) {
        self.index = index
        self.name = name
        // The name and the member access.
        super.init(span: span, cost: 2)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let slot = context.frameBase + index
        let result: RValue
        if let map = context.slotMap(slot) {
            result = map.with { $0[name] } ?? RError.undefinedProperty(name, span: span)
        } else {
            result = MemberNode.member(context.readSlot(slot), name, span: span)
        }
        if case .error(let error) = result, error.kind == .unknown { context.touchedUnknown = true }
        return result
    }
}
