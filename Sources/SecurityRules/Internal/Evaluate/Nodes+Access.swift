/// `base.name`.
final class MemberNode: Node {
    let base: Node
    let name: String

    init(base: Node, name: String, span: SourceSpan, coverageID: Int32) {
        self.base = base
        self.name = name
        super.init(span: span, coverageID: coverageID)
    }

    override var readsDocuments: Bool { base.readsDocuments }

    override func evaluate(_ context: EvalContext) -> RValue {
        let value = context.eval(base)
        let result = MemberNode.member(value, name, span: span)
        if case .error(let error) = result, error.kind == .unknown { context.touchedUnknown = true }
        return result
    }

    static func member(_ value: RValue, _ name: String, span: SourceSpan) -> RValue {
        switch value {
        case .map(let map):
            return map[name] ?? RError.undefinedProperty(name, span: span)
        case .error:
            return value
        case .null:
            return RError.nullValue(span: span)
        case .path:
            return RError.undefinedProperty(name, span: span)
        default:
            return RError.typeError(received: value.typeName, expected: "map,path", span: span)
        }
    }
}

/// `base[index]`.
final class IndexNode: Node {
    let base: Node
    let index: Node

    init(base: Node, index: Node, span: SourceSpan, coverageID: Int32) {
        self.base = base
        self.index = index
        super.init(span: span, coverageID: coverageID)
    }

    override var readsDocuments: Bool { base.readsDocuments || index.readsDocuments }

    override func evaluate(_ context: EvalContext) -> RValue {
        let container = context.eval(base)
        if container.isFatalError { return container }
        let key = context.eval(index)
        if case .error = container { return container }
        if case .error = key { return key }
        return IndexNode.lookup(container, key, span: span)
    }

    static func lookup(_ container: RValue, _ key: RValue, span: SourceSpan) -> RValue {
        switch (container, key) {
        case (.list(let list), .int(let index)):
            guard index >= 0, index < list.count else {
                return RError.indexOutOfBounds(index, size: list.count, span: span)
            }
            return list[Int(index)]
        case (.list, _):
            return RError.unsupported("list[\(key.typeName)]", expected: ["list[int]"], span: span)
        case (.map(let map), .string(let name)):
            return map[name] ?? RError.undefinedProperty(name, span: span)
        case (.map, _):
            return RError.unsupported("map[\(key.typeName)]", expected: ["map[string]"], span: span)
        case (.string(let string), .int(let index)):
            let units = Array(string.utf16)
            guard index >= 0, index < units.count else {
                return RError.indexOutOfBounds(index, size: units.count, span: span)
            }
            return .string(String(decoding: units[Int(index)...Int(index)], as: UTF16.self))
        case (.string, _):
            return RError.unsupported("string[\(key.typeName)]", expected: ["string[int]"], span: span)
        case (.path(let path), .int(let index)):
            guard index >= 0, index < path.segments.count else {
                return RError.indexOutOfBounds(index, size: path.segments.count, span: span)
            }
            let segment = path.segments[Int(index)]
            if let (name, _) = Library.templateVariable(segment) {
                return RError.value("Variable \(name) is not bound in path template.", span: span)
            }
            return .string(segment)
        case (.path, _):
            return RError.unsupported("path[\(key.typeName)]", expected: ["path[int]"], span: span)
        case (.null, _):
            return RError.nullValue(span: span)
        case (.constraint(let constraint), _):
            return constraint.unknown(span: span)
        default:
            return RError.functionNotFound("[]", span: span)
        }
    }
}

/// `base[from:to]`.
final class RangeNode: Node {
    let base: Node
    let from: Node?
    let to: Node?

    init(base: Node, from: Node?, to: Node?, span: SourceSpan, coverageID: Int32) {
        self.base = base
        self.from = from
        self.to = to
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let container = context.eval(base)
        if container.isFatalError { return container }
        let lower = from.map { context.eval($0) } ?? .null
        if lower.isFatalError { return lower }
        let upper = to.map { context.eval($0) } ?? .null
        if case .error = container { return container }
        if case .error = lower { return lower }
        if case .error = upper { return upper }
        let typeName: String
        let count: Int
        switch container {
        case .list(let list):
            typeName = "list"
            count = list.count
        case .string(let string):
            typeName = "string"
            count = string.utf16.count
        case .path(let path):
            typeName = "path"
            count = path.segments.count
        case .null:
            return RError.nullValue(span: span)
        default:
            return RError.functionNotFound("@range", span: span)
        }
        func bound(_ value: RValue, default fallback: Int) -> Int64?? {
            switch value {
            case .null: return .some(Int64(fallback))
            case .int(let index): return .some(index)
            default: return .none
            }
        }
        guard case .some(let start?) = bound(lower, default: 0), case .some(let end?) = bound(upper, default: count)
        else {
            let received = "\(typeName)[\(lower.typeName):\(upper.typeName)]"
            let expected = ["null:null", "null:int", "int:null", "int:int"].map { "\(typeName)[\($0)]" }
            return RError.unsupported(received, expected: expected, span: span)
        }
        // As Google's runtime checks: the first index and the last one (`end - 1`) must exist.
        if start < 0 || start >= count { return RError.indexOutOfBounds(start, size: count, span: span) }
        if end < 1 || end > count { return RError.indexOutOfBounds(end - 1, size: count, span: span) }
        if end < start { return RError.illegalRange(start, end, span: span) }
        let range = Int(start)..<Int(end)
        switch container {
        case .list(let list): return .list(Array(list[range]))
        case .string(let string): return .string(String(decoding: Array(string.utf16)[range], as: UTF16.self))
        case .path(let path): return .path(RPath(segments: Array(path.segments[range])))
        default: return RError.functionNotFound("@range", span: span)
        }
    }
}
