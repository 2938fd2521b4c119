/// A compiled expression. The compiler turns the syntax tree into a tree of `Node` subclasses
/// with names resolved (slots for variables, direct references to functions), constants
/// folded and method calls bound; evaluation is a virtual call per node.
///
/// Nodes are immutable and shared by all threads evaluating the ruleset (the compiled allow
/// holding a tree is `@unchecked Sendable` for that reason; a non-final class cannot be
/// checked `Sendable`).
class Node {
    /// Where the expression is in the source.
    let span: SourceSpan
    /// The expression's index in the coverage table, or -1 when it is not reported (literals).
    let coverageID: Int32
    /// How many expressions evaluating this node counts toward the limit of 1000 per request,
    /// as Google's runtime counts them (a folded constant counts its literals).
    let cost: Int32

    init(span: SourceSpan, coverageID: Int32 = -1, cost: Int32 = 1) {
        self.span = span
        self.coverageID = coverageID
        self.cost = cost
    }

    /// Evaluates the node itself; callers go through `EvalContext.eval(_:)`, which counts
    /// the evaluation and records coverage.
    func evaluate(_ context: EvalContext) -> RValue {
        fatalError("abstract")
    }

    /// Whether evaluating the node can read `resource` or a document (so the first phase of a
    /// request may not decide it).
    var readsDocuments: Bool { false }
}

/// A literal, or a subtree the compiler folded to a value.
final class ConstantNode: Node {
    let value: RValue

    init(_ value: RValue, span: SourceSpan, coverageID: Int32 = -1, cost: Int32 = 1) {
        self.value = value
        super.init(span: span, coverageID: coverageID, cost: cost)
    }

    override func evaluate(_ context: EvalContext) -> RValue { value }
}

/// A name the compiler could not resolve: evaluating it is an error (a warning at load).
final class UndefinedNode: Node {
    override func evaluate(_ context: EvalContext) -> RValue { RError.nullValue(span: span) }
}

/// A match path variable (`{userId}`, `{path=**}`).
final class PathVariableNode: Node {
    let index: Int

    init(index: Int, span: SourceSpan, coverageID: Int32) {
        self.index = index
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        if let source = context.pathSource {
            return source.with { match in
                index < match.chain.count
                    ? PathMatcher.value(at: index, of: match.chain, request: context.request.request)
                    : RError.nullValue(span: span)
            }
        }
        return index < context.pathValues.count ? context.pathValues[index] : RError.nullValue(span: span)
    }
}

/// A function parameter or `let` binding, evaluated on first read.
final class SlotNode: Node {
    let index: Int

    init(index: Int, span: SourceSpan, coverageID: Int32) {
        self.index = index
        super.init(span: span, coverageID: coverageID)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        context.readSlot(context.frameBase + index)
    }
}
