/// `request`.
final class RequestNode: Node {
    override func evaluate(_ context: EvalContext) -> RValue {
        context.phase == .first ? context.request.firstPhaseRequestValue : context.request.requestValue
    }
}

/// `resource`: unknown in the first phase of a request (except for `list`, where it stands for
/// the query's constraints).
final class ResourceNode: Node {
    override var readsDocuments: Bool { true }

    override func evaluate(_ context: EvalContext) -> RValue {
        if context.phase == .first && context.request.method != .list {
            return context.unknown(at: span)
        }
        return context.request.resourceValue
    }
}
