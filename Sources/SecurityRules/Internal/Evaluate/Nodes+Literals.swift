/// `[a, b, c]`.
final class ListNode: Node {
    let elements: [Node]

    init(elements: [Node], span: SourceSpan, coverageID: Int32) {
        self.elements = elements
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        var values: [RValue] = []
        values.reserveCapacity(elements.count)
        var firstError: RValue?
        for element in elements {
            let value = context.eval(element)
            if case .error = value {
                if value.isFatalError { return value }
                if firstError == nil { firstError = value }
            }
            values.append(value)
        }
        return firstError ?? .list(values)
    }
}

/// `{'key': value}`.
final class MapNode: Node {
    let entries: [(key: Node, value: Node)]

    init(entries: [(key: Node, value: Node)], span: SourceSpan, coverageID: Int32) {
        self.entries = entries
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        // Google's runtime evaluates every key, then every value; the first error is reported.
        var keys: [RValue] = []
        keys.reserveCapacity(entries.count)
        var firstError: RValue?
        for entry in entries {
            let key = context.eval(entry.key)
            switch key {
            case .error:
                if key.isFatalError { return key }
                if firstError == nil { firstError = key }
            case .string: break
            default:
                if firstError == nil {
                    firstError = RError.typeError(received: key.typeName, expected: "string", span: entry.key.span)
                }
            }
            keys.append(key)
        }
        var values: [RValue] = []
        values.reserveCapacity(entries.count)
        for entry in entries {
            let value = context.eval(entry.value)
            if case .error = value {
                if value.isFatalError { return value }
                if firstError == nil { firstError = value }
            }
            values.append(value)
        }
        if let firstError { return firstError }
        var built: [RMap.Entry] = []
        built.reserveCapacity(entries.count)
        for (index, key) in keys.enumerated() {
            guard case .string(let name) = key else { continue }
            built.append(RMap.Entry(key: name, value: values[index]))
        }
        return .map(RMap(entries: built))
    }
}

/// `/literal/$(expression)/...`: each interpolated value becomes one segment.
final class PathNode: Node {
    enum Part {
        case literal(String?)
        case interpolation(Node)
    }

    let parts: [Part]

    init(parts: [Part], span: SourceSpan, coverageID: Int32) {
        self.parts = parts
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        var segments: [String] = []
        segments.reserveCapacity(parts.count)
        for part in parts {
            switch part {
            case .literal(let text?):
                segments.append(text)
            case .literal(nil):
                return RError.nullValue(span: span)
            case .interpolation(let node):
                let value = context.eval(node)
                context.count(1)
                switch Conversions.toString(value, span: node.span) {
                case .string(let text): segments.append(text)
                case .path(let path): segments.append(contentsOf: path.segments)
                case let other: return other
                }
            }
        }
        return .path(RPath(segments: segments))
    }
}
