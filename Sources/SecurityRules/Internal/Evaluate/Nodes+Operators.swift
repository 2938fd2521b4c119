/// A comparison operator, for evaluation.
enum ComparisonOperator: Sendable {
    case less, lessOrEqual, greater, greaterOrEqual

    var symbol: String {
        switch self {
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }

    func holds(_ order: Int) -> Bool {
        switch self {
        case .less: order == -1
        case .lessOrEqual: order == -1 || order == 0
        case .greater: order == 1
        case .greaterOrEqual: order == 1 || order == 0
        }
    }

    /// The operator with its operands swapped (`a < b` is `b > a`).
    var flipped: ComparisonOperator {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }
}

/// `+ - * / %`.
final class ArithmeticNode: Node {
    let op: BinaryOperator
    let left: Node
    let right: Node

    init(op: BinaryOperator, left: Node, right: Node, span: SourceSpan, coverageID: Int32) {
        self.op = op
        self.left = left
        self.right = right
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let a = context.eval(left)
        if a.isFatalError { return a }
        let b = context.eval(right)
        if case .error = a { return a }
        if case .error = b { return b }
        if case .constraint(let constraint) = a { return constraint.unknown(span: span) }
        if case .constraint(let constraint) = b { return constraint.unknown(span: span) }
        switch op {
        case .add: return Operators.add(a, b, span: span)
        case .subtract: return Operators.subtract(a, b, span: span)
        case .multiply: return Operators.multiply(a, b, span: span)
        case .divide: return Operators.divide(a, b, span: span)
        default: return Operators.modulo(a, b, span: span)
        }
    }
}

/// `< <= > >=`.
final class ComparisonNode: Node {
    let op: ComparisonOperator
    let left: Node
    let right: Node

    init(op: ComparisonOperator, left: Node, right: Node, span: SourceSpan, coverageID: Int32) {
        self.op = op
        self.left = left
        self.right = right
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let a = context.eval(left)
        if a.isFatalError { return a }
        let b = context.eval(right)
        if case .error = a { return a }
        if case .error = b { return b }
        return ComparisonNode.compare(op, a, b, span: span)
    }

    static func compare(_ op: ComparisonOperator, _ a: RValue, _ b: RValue, span: SourceSpan) -> RValue {
        if case .constraint(let constraint) = a { return constraint.compare(op, b, span: span) }
        if case .constraint(let constraint) = b { return constraint.compare(op.flipped, a, span: span) }
        guard let order = Operators.order(a, b) else {
            return RError.unsupported(
                "\(a.typeName) \(op.symbol) \(b.typeName)", expected: Operators.comparisonSignatures(op.symbol),
                span: span)
        }
        return .bool(op.holds(order))
    }
}

/// `==` and `!=`.
final class EqualityNode: Node {
    let negated: Bool
    let left: Node
    let right: Node

    init(negated: Bool, left: Node, right: Node, span: SourceSpan, coverageID: Int32) {
        self.negated = negated
        self.left = left
        self.right = right
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let a = context.eval(left)
        if a.isFatalError { return a }
        let b = context.eval(right)
        if case .error = a { return a }
        if case .error = b { return b }
        if case .constraint(let constraint) = a { return constraint.equals(b, negated: negated, span: span) }
        if case .constraint(let constraint) = b { return constraint.equals(a, negated: negated, span: span) }
        return .bool(RValue.equal(a, b) != negated)
    }
}

/// `value in container`.
final class InNode: Node {
    let left: Node
    let right: Node

    init(left: Node, right: Node, span: SourceSpan, coverageID: Int32) {
        self.left = left
        self.right = right
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let container = context.eval(right)
        if container.isFatalError { return container }
        let element = context.eval(left)
        if case .error = container { return container }
        if case .error = element { return element }
        return InNode.contains(container, element, span: span)
    }

    static func contains(_ container: RValue, _ element: RValue, span: SourceSpan) -> RValue {
        if case .constraint(let constraint) = element {
            return constraint.isIn(container, span: span)
        }
        switch container {
        case .list(let list):
            return .bool(list.contains { RValue.strictEqual($0, element) })
        case .set(let set):
            return .bool(set.contains(element))
        case .map(let map):
            guard case .string(let key) = element else {
                return RError.unsupported("map.in(\(element.typeName))", expected: ["map.in(string)"], span: span)
            }
            return .bool(map.contains(key: key))
        case .constraint(let constraint):
            return constraint.containsElement(element, span: span)
        case .null:
            return RError.nullValue(span: span)
        default:
            return RError.functionNotFound("in", span: span)
        }
    }
}

/// `!x` and `-x`.
final class UnaryNode: Node {
    let op: UnaryOperator
    let operand: Node

    init(op: UnaryOperator, operand: Node, span: SourceSpan, coverageID: Int32) {
        self.op = op
        self.operand = operand
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let value = context.eval(operand)
        if case .error = value { return value }
        if case .constraint(let constraint) = value { return constraint.unknown(span: span) }
        return op == .not ? Operators.not(value, span: span) : Operators.negate(value, span: span)
    }
}

/// `&&` and `||`, absorbing errors as Google's runtime does: `false && error` and
/// `error && false` are false, `true || error` and `error || true` are true; otherwise the
/// first error wins. A non-boolean operand is a type error.
final class LogicalNode: Node {
    let isAnd: Bool
    let left: Node
    let right: Node
    /// The coverage entries of `right`, reported as not evaluated when `left` decides.
    var skippedWhenDecided: [Int32] = []

    init(isAnd: Bool, left: Node, right: Node, span: SourceSpan, coverageID: Int32) {
        self.isAnd = isAnd
        self.left = left
        self.right = right
        super.init(span: span, coverageID: coverageID)
    }

    @inline(__always)
    static func asBool(_ value: RValue, span: SourceSpan) -> RValue {
        switch value {
        case .bool, .error: value
        default: RError.typeError(received: value.typeName, expected: "bool", span: span)
        }
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let a = LogicalNode.asBool(context.eval(left), span: left.span)
        // The deciding value short-circuits.
        if case .bool(let value) = a, value != isAnd {
            if let coverage = context.coverage, !skippedWhenDecided.isEmpty { coverage.skip(skippedWhenDecided) }
            return a
        }
        context.count(1)
        if case .error(let error) = a, error.kind == .fatal { return a }
        let b = LogicalNode.asBool(context.eval(right), span: right.span)
        switch (a, b) {
        case (.bool, _): return b
        case (.error, .bool(let value)) where value != isAnd: return b
        default: return a
        }
    }
}

/// `condition ? then : otherwise`.
final class TernaryNode: Node {
    let condition: Node
    let then: Node
    let otherwise: Node

    init(condition: Node, then: Node, otherwise: Node, span: SourceSpan, coverageID: Int32) {
        self.condition = condition
        self.then = then
        self.otherwise = otherwise
        super.init(span: span, coverageID: coverageID, cost: 2)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        switch LogicalNode.asBool(context.eval(condition), span: condition.span) {
        case .bool(true):
            return context.eval(then)
        case .bool(false):
            context.count(2)
            return context.eval(otherwise)
        case let error:
            return error
        }
    }
}

/// `value is type`.
final class IsNode: Node {
    let operand: Node
    let typeName: String
    /// The type tag `is` tests for; -2 for `number`, -3 for `set` (never true), -1 for none.
    let tag: Int

    init(operand: Node, typeName: String, span: SourceSpan, coverageID: Int32) {
        self.operand = operand
        self.typeName = typeName
        switch typeName {
        case "number": tag = -2
        // Google's runtime answers false for `is set`, even for a set.
        case "set": tag = -3
        default: tag = RValue.typeNames.firstIndex(of: typeName) ?? -1
        }
        super.init(span: span, coverageID: coverageID, cost: 2)
    }

    /// The type names `is` accepts, in Google's order (for the error message).
    static let typeNames = [
        "bool", "bytes", "constraint", "duration", "float", "int", "latlng", "list", "vector", "set", "number", "map",
        "string", "timestamp", "path", "map_diff",
    ]

    override func evaluate(_ context: EvalContext) -> RValue {
        let value = context.eval(operand)
        if case .error = value { return value }
        let actual = value.typeTag
        switch tag {
        case -2: return .bool(actual == 2 || actual == 3)
        default: return .bool(actual == tag)
        }
    }
}

/// A chain `a && b && c` (or `||`) evaluated as one node, with exactly the results, the
/// absorption of errors and the expression count of the nested binary nodes it replaces.
/// Used when coverage is off (coverage reports each nested node).
final class LogicalChainNode: Node {
    let isAnd: Bool
    /// The operands (evaluated without taking reference counts).
    let operands: HeldList<Node>

    init(isAnd: Bool, operands: [Node], span: SourceSpan) {
        self.isAnd = isAnd
        self.operands = HeldList(operands)
        super.init(span: span, cost: Int32(operands.count - 1))
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        var firstError: RValue?
        for index in operands.indices {
            if index > 0 { context.count(1) }
            let value = operands.with(index) { operand in
                LogicalNode.asBool(context.eval(operand), span: operand.span)
            }
            switch value {
            case .bool(let flag):
                // The deciding value: `false` for `&&`, `true` for `||`.
                if flag != isAnd { return value }
            case .error(let error):
                if error.kind == .fatal { return value }
                if firstError == nil { firstError = value }
            default:
                break
            }
        }
        return firstError ?? .bool(isAnd)
    }
}
