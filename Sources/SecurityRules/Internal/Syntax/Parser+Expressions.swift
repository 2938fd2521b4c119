extension Parser {
    /// Adds a node, tracking its height; a node taller than `maximumHeight` is reported once and
    /// the statement abandoned.
    mutating func node(_ kind: ExprKind, _ span: SourceSpan, children: [ExprID] = []) -> ExprID {
        var height: Int32 = 1
        for child in children where child >= 0 && Int(child) < heights.count {
            height = max(height, heights[Int(child)] + 1)
        }
        if height > Parser.maximumHeight {
            tooComplex(span)
            height = 1
        }
        let id = tree.add(kind, span)
        heights.append(height)
        return id
    }

    mutating func invalid(_ span: SourceSpan) -> ExprID {
        node(.invalid, span)
    }

    mutating func tooComplex(_ span: SourceSpan) {
        if !abandoned {
            diagnostics.syntaxError("Expression is too complex to evaluate safely.", at: span)
        }
        abandoned = true
    }

    func span(_ id: ExprID) -> SourceSpan { tree[id].span }

    // MARK: Operators

    mutating func parseExpression() -> ExprID {
        recursionDepth += 1
        defer { recursionDepth -= 1 }
        guard !abandoned else { return invalid(current.span) }
        guard recursionDepth <= Parser.maximumRecursion else {
            tooComplex(current.span)
            return invalid(current.span)
        }
        let condition = parseBinary(minimumPrecedence: BinaryOperator.or.precedence)
        guard kind == .question else { return condition }
        _ = advance()
        let then = parseExpression()
        guard expect(.colon) != nil else {
            abandoned = true
            return invalid(span(condition))
        }
        let otherwise = parseExpression()
        return node(
            .ternary(condition, then, otherwise), span(condition).through(span(otherwise)),
            children: [condition, then, otherwise])
    }

    func binaryOperator(_ kind: TokenKind) -> BinaryOperator? {
        switch kind {
        case .star: .multiply
        case .slash: .divide
        case .percent: .modulo
        case .plus: .add
        case .minus: .subtract
        case .lt: .less
        case .le: .lessOrEqual
        case .gt: .greater
        case .ge: .greaterOrEqual
        case .eq: .equal
        case .ne: .notEqual
        case .in: .in
        case .and: .and
        case .or: .or
        default: nil
        }
    }

    /// Precedence climbing; `is` is a postfix operator at its own level.
    mutating func parseBinary(minimumPrecedence: Int) -> ExprID {
        var left = parseUnary()
        while !abandoned {
            if kind == .is {
                guard BinaryOperator.isPrecedence >= minimumPrecedence else { break }
                _ = advance()
                guard kind == .identifier else {
                    diagnostics.syntaxError("mismatched input '\(text(of: current))' expecting IDENTIFIER", at: current.span)
                    abandoned = true
                    return left
                }
                let type = advance()
                if !IsNode.typeNames.contains(type.name) {
                    diagnostics.error(
                        "An unsupported type identifier was used with the 'is' operator. Received \(type.name). "
                            + "Expected one of \(IsNode.typeNames.joined(separator: ","))", at: type.span)
                }
                left = node(
                    .isType(left, typeName: type.name, typeSpan: type.span), span(left).through(type.span),
                    children: [left])
                continue
            }
            guard let op = binaryOperator(kind), op.precedence >= minimumPrecedence else { break }
            _ = advance()
            let right = parseBinary(minimumPrecedence: op.precedence + 1)
            left = node(.binary(op, left, right), span(left).through(span(right)), children: [left, right])
        }
        return left
    }

    mutating func parseUnary() -> ExprID {
        recursionDepth += 1
        defer { recursionDepth -= 1 }
        guard recursionDepth <= Parser.maximumRecursion else {
            tooComplex(current.span)
            return invalid(current.span)
        }
        switch kind {
        case .bang:
            let bang = advance()
            let operand = parseUnary()
            return node(.unary(.not, operand), bang.span.through(span(operand)), children: [operand])
        case .minus:
            let minus = advance()
            if kind == .minus || kind == .bang || kind == .minusMinus || kind == .plusPlus {
                unexpected(current)
                abandoned = true
                return invalid(minus.span)
            }
            if kind == .int, case .minimumIntegerMagnitude = current.payload {
                let literal = advance()
                return node(.int(Int64.min), minus.span.through(literal.span))
            }
            let operand = parsePostfix()
            return node(.unary(.negate, operand), minus.span.through(span(operand)), children: [operand])
        case .plusPlus, .minusMinus:
            diagnostics.syntaxError("Increment (++) and decrement (--) operators are not supported.", at: current.span)
            abandoned = true
            return invalid(advance().span)
        default:
            return parsePostfix()
        }
    }

    // MARK: Postfix

    mutating func parsePostfix() -> ExprID {
        var base = parsePrimary()
        while !abandoned {
            switch kind {
            case .dot:
                _ = advance()
                guard kind == .identifier || kind.isKeywordLike else {
                    unexpected(current)
                    abandoned = true
                    return base
                }
                let name = advance()
                base = node(
                    .member(base, name: text(of: name), nameSpan: name.span), span(base).through(name.span),
                    children: [base])
            case .lbracket:
                base = parseIndex(base)
            case .lparen:
                guard isCallable(base) else { return base }
                _ = advance()
                let arguments = parseList(closing: .rparen)
                let close = current.span
                guard expect(.rparen) != nil else {
                    abandoned = true
                    return base
                }
                base = node(
                    .call(callee: base, arguments: arguments), span(base).through(close), children: [base] + arguments)
            default:
                return base
            }
        }
        return base
    }

    func isCallable(_ id: ExprID) -> Bool {
        switch tree[id].kind {
        case .identifier, .member: true
        default: false
        }
    }

    /// `a[i]`, `a[i:j]`, `a[:j]`, `a[i:]`.
    mutating func parseIndex(_ base: ExprID) -> ExprID {
        _ = advance()
        var from: ExprID?
        if kind != .colon { from = parseExpression() }
        if accept(.colon) != nil {
            var to: ExprID?
            if kind != .rbracket { to = parseExpression() }
            let close = current.span
            guard expect(.rbracket) != nil else {
                abandoned = true
                return base
            }
            let children = [base] + [from, to].compactMap { $0 }
            return node(.range(base, from, to), span(base).through(close), children: children)
        }
        let close = current.span
        guard let from, expect(.rbracket) != nil else {
            abandoned = true
            return base
        }
        return node(.index(base, from), span(base).through(close), children: [base, from])
    }

    /// Comma-separated expressions up to `closing` (not consumed); a trailing comma is allowed.
    mutating func parseList(closing: TokenKind) -> [ExprID] {
        var items: [ExprID] = []
        while kind != closing && kind != .eof && !abandoned {
            items.append(parseExpression())
            guard accept(.comma) != nil else { break }
        }
        return items
    }
}
