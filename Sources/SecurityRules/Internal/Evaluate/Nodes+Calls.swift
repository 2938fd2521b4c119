/// A user function, compiled once. The compiler creates it before compiling bodies, so calls
/// can refer to functions declared later, and gives it its body with `define`.
///
/// `@unchecked Sendable`: defined before its ruleset exists, cleared when it is freed (listed
/// and argued in Unsafe/UnsafeTricks.swift).
final class CompiledFunction: @unchecked Sendable {
    let name: String
    let parameterCount: Int
    private(set) var lets: [Node] = []
    private(set) var body: Node
    /// `body`, held by `body`: a call evaluates it without taking a reference count.
    private(set) var unretainedBody: Unretained<Node>
    /// One for the `let` bindings, as Google's runtime counts them.
    private(set) var bindingCost: Int32 = 0
    /// The coverage entries of the `let`s of a body, which report the function's results.
    var coverageIDs: [Int32] = []

    init(name: String, parameterCount: Int, placeholder: Node) {
        self.name = name
        self.parameterCount = parameterCount
        self.body = placeholder
        unretainedBody = Unretained(placeholder)
    }

    /// Sets the compiled `let` bindings and return expression.
    func define(lets: [Node], body: Node) {
        self.lets = lets
        self.body = body
        unretainedBody = Unretained(body)
        bindingCost = lets.isEmpty ? 0 : 1
    }

    /// Drops the `let`s and the body, and with them the calls they make: a recursive function
    /// refers to itself through its calls, a cycle its ruleset ends this way when it is freed.
    func clear() {
        define(lets: [], body: UndefinedNode(span: body.span))
    }

    var slotCount: Int { parameterCount + lets.count }
}

/// A call of a user function: arguments and `let`s are bound lazily.
final class UserCallNode: Node {
    /// The function and the arguments (called and bound without taking reference counts).
    let function: Held<CompiledFunction>
    let arguments: HeldList<Node>

    init(function: CompiledFunction, arguments: [Node], span: SourceSpan, coverageID: Int32) {
        self.function = Held(function)
        self.arguments = HeldList(arguments)
        super.init(span: span, coverageID: coverageID)
    }

    static let maximumCallDepth = 20

    override func evaluate(_ context: EvalContext) -> RValue {
        function.with { call(function: $0, context) }
    }

    private func call(function: CompiledFunction, _ context: EvalContext) -> RValue {
        guard arguments.count == function.parameterCount else {
            return RError.value(
                "Incorrect number of arguments. Received: \(arguments.count). Expected: \(function.parameterCount).",
                span: span)
        }
        guard context.callDepth < UserCallNode.maximumCallDepth else { return .error(RError.callDepthLimit) }
        let callerBase = context.frameBase
        let base = context.slotCount
        for index in arguments.indices {
            arguments.with(index) { context.pushSlot(pending: Unretained($0), frameBase: callerBase) }
        }
        if function.bindingCost != 0 {
            for binding in function.lets {
                context.pushSlot(pending: Unretained(binding), frameBase: base)
            }
            context.count(function.bindingCost)
        }
        context.frameBase = base
        context.callDepth += 1
        let result = function.unretainedBody.with { context.eval($0) }
        if let coverage = context.coverage {
            for id in function.coverageIDs { coverage.record(id, result) }
        }
        context.callDepth -= 1
        context.frameBase = callerBase
        context.popSlots(to: base)
        return result
    }
}

/// The signature of a built-in function or method implementation: the receiver (`.null` for
/// a global function), the evaluated arguments.
typealias BuiltinImplementation = @Sendable (_ receiver: RValue, _ arguments: Arguments, _ call: CallSite) -> RValue

/// What a built-in needs to know about its call: where it is, and the evaluation (for
/// document reads).
struct CallSite {
    let span: SourceSpan
    let context: EvalContext
}

/// A call of a global built-in (`int(x)`, `math.abs(x)`, `get(path)`).
final class GlobalCallNode: Node {
    let implementation: BuiltinImplementation
    let arguments: [Node]
    let reads: Bool

    init(
        implementation: @escaping BuiltinImplementation, arguments: [Node], readsDocuments: Bool, span: SourceSpan,
        coverageID: Int32
    ) {
        self.implementation = implementation
        self.arguments = arguments
        self.reads = readsDocuments
        super.init(span: span, coverageID: coverageID)
    }

    override var readsDocuments: Bool { reads }

    override func evaluate(_ context: EvalContext) -> RValue {
        var values = Arguments()
        var firstError: RValue?
        for argument in arguments {
            let value = context.eval(argument)
            if case .error = value {
                if value.isFatalError { return value }
                if firstError == nil { firstError = value }
            }
            values.append(value)
        }
        if let firstError { return firstError }
        return implementation(.null, values, CallSite(span: span, context: context))
    }
}

/// A method call, `receiver.name(arguments)`, bound to the method's table (or to an
/// implementation the compiler specialized for a literal argument).
final class MethodCallNode: Node {
    /// The receiver and the arguments (evaluated without taking reference counts).
    let receiver: Held<Node>
    let table: MethodTable
    let specialized: BuiltinImplementation?
    /// For `matches` with a literal pattern (a `ConstantNode` argument): the pattern, compiled
    /// once (a string receiver is matched directly; other receivers go through `table`).
    let regex: RulesRegex?
    let arguments: HeldList<Node>

    init(
        receiver: Node, table: MethodTable, specialized: BuiltinImplementation?, regex: RulesRegex? = nil,
        arguments: [Node], span: SourceSpan, coverageID: Int32
    ) {
        self.receiver = Held(receiver)
        self.table = table
        self.specialized = specialized
        self.regex = regex
        self.arguments = HeldList(arguments)
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        let target = receiver.with { context.eval($0) }
        if target.isFatalError { return target }
        if let regex { return matches(regex, target, context) }
        var values = Arguments()
        var firstError: RValue?
        for index in arguments.indices {
            let value = arguments.with(index) { context.eval($0) }
            if case .error = value {
                if value.isFatalError { return value }
                if firstError == nil { firstError = value }
            }
            values.append(value)
        }
        if case .error = target { return target }
        if let firstError {
            // A receiver without the method (or null) is reported before the arguments' errors.
            if table.byTag[target.typeTag] == nil, specialized == nil, !target.isConstraint {
                return table.call(target, Arguments(), CallSite(span: span, context: context))
            }
            return firstError
        }
        let site = CallSite(span: span, context: context)
        if let specialized { return specialized(target, values, site) }
        return table.call(target, values, site)
    }

    /// `target.matches(pattern)` with a literal pattern: as the general path, with a string
    /// receiver matched directly (the literal is counted, not copied).
    private func matches(_ regex: RulesRegex, _ target: RValue, _ context: EvalContext) -> RValue {
        if let limit = arguments.with(0, { context.enter($0) }) { return limit }
        if case .error = target { return target }
        if case .string(let text) = target { return .bool(regex.matchesFully(text)) }
        var values = Arguments()
        values.append(arguments.with(0) { ($0 as! ConstantNode).value })
        return table.call(target, values, CallSite(span: span, context: context))
    }
}

/// A call of a function that does not exist (a warning at load).
final class UnknownFunctionNode: Node {
    let name: String
    let arguments: [Node]

    init(name: String, arguments: [Node], span: SourceSpan, coverageID: Int32) {
        self.name = name
        self.arguments = arguments
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        RError.functionNotFound(name, span: span)
    }
}
