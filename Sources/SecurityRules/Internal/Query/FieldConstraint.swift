/// A field a list query constrains without fixing its value. An operation on it is true when
/// it holds for every value the constraint allows; otherwise it is an evaluation error
/// (`evaluation error at L5:22`), except `hasAny`, which is then false, as in Google's evaluator.
final class FieldConstraint: Sendable {
    let knowledge: FieldKnowledge

    init(_ knowledge: FieldKnowledge) {
        self.knowledge = knowledge
    }

    /// The error of an operation the constraint does not decide.
    func unknown(span: SourceSpan) -> RValue {
        .error(RError("", kind: .unknown, span: span))
    }

    /// `constraint op value`.
    func compare(_ op: ComparisonOperator, _ value: RValue, span: SourceSpan) -> RValue {
        switch op {
        case .less, .lessOrEqual:
            guard let upper = knowledge.upper, let order = Operators.order(upper.value, value) else { break }
            // Every x < upper (or <= upper) must satisfy x < value (or <= value).
            if order < 0 || (order == 0 && (!upper.inclusive || op == .lessOrEqual)) { return .true }
        case .greater, .greaterOrEqual:
            guard let lower = knowledge.lower, let order = Operators.order(lower.value, value) else { break }
            if order > 0 || (order == 0 && (!lower.inclusive || op == .greaterOrEqual)) { return .true }
        }
        return unknown(span: span)
    }

    /// `constraint == value` (`negated`: `!=`): only a difference can be proved.
    func equals(_ value: RValue, negated: Bool, span: SourceSpan) -> RValue {
        guard negated else { return unknown(span: span) }
        if case .null = value, knowledge.notNull || knowledge.lower != nil || knowledge.upper != nil { return .true }
        if knowledge.excluded.contains(where: { RValue.equal($0, value) }) { return .true }
        if let lower = knowledge.lower, let order = Operators.order(value, lower.value),
            order < 0 || (order == 0 && !lower.inclusive)
        {
            return .true
        }
        if let upper = knowledge.upper, let order = Operators.order(value, upper.value),
            order > 0 || (order == 0 && !upper.inclusive)
        {
            return .true
        }
        return unknown(span: span)
    }

    /// `constraint in container`.
    func isIn(_ container: RValue, span: SourceSpan) -> RValue {
        unknown(span: span)
    }

    /// `element in constraint`: provable for an `array-contains` filter on the element.
    func containsElement(_ element: RValue, span: SourceSpan) -> RValue {
        knowledge.contains.contains { RValue.strictEqual($0, element) } ? .true : unknown(span: span)
    }

    /// A method called on the constraint.
    func method(_ name: String, _ arguments: Arguments, span: SourceSpan) -> RValue {
        guard name == "hasAny", arguments.count == 1, case .list(let values) = arguments[0] else {
            return RError.functionNotFound(name, span: span)
        }
        return .bool(values.contains { value in knowledge.contains.contains { RValue.strictEqual($0, value) } })
    }
}
