extension Parser {
    /// Literals, names, brackets and path literals.
    mutating func parsePrimary() -> ExprID {
        let token = current
        switch token.kind {
        case .null:
            _ = advance()
            return node(.null, token.span)
        case .true, .false:
            _ = advance()
            return node(.bool(token.kind == .true), token.span)
        case .int:
            _ = advance()
            if case .int(let value) = token.payload { return node(.int(value), token.span) }
            diagnostics.error("Invalid number literal \(text(of: token)).", at: token.span)
            return node(.int(0), token.span)
        case .float:
            _ = advance()
            if case .float(let value) = token.payload { return node(.float(value), token.span) }
        case .string:
            _ = advance()
            if case .string(let value) = token.payload { return node(.string(value), token.span) }
        case .bytes:
            _ = advance()
            if case .bytes(let value) = token.payload { return node(.bytes(value), token.span) }
        case .identifier:
            _ = advance()
            return node(.identifier(token.name), token.span)
        case .lparen:
            _ = advance()
            let inner = parseExpression()
            let close = current.span
            guard expect(.rparen) != nil else {
                abandoned = true
                return inner
            }
            return node(.paren(inner), token.span.through(close), children: [inner])
        case .lbracket:
            _ = advance()
            let items = parseList(closing: .rbracket)
            let close = current.span
            guard expect(.rbracket) != nil else {
                abandoned = true
                return invalid(token.span)
            }
            return node(.list(items), token.span.through(close), children: items)
        case .lbrace:
            return parseMap()
        case .pathSegment:
            return parsePath()
        case .slash where peekKind(1) == .dollarParen:
            return parsePath()
        case .invalid:
            _ = advance()
            abandoned = true
            return invalid(token.span)
        default:
            break
        }
        unexpected(token)
        abandoned = true
        return invalid(token.span)
    }

    mutating func parseMap() -> ExprID {
        let open = advance()
        var entries: [(key: ExprID, value: ExprID)] = []
        var children: [ExprID] = []
        while kind != .rbrace && kind != .eof && !abandoned {
            let key = parseExpression()
            guard expect(.colon) != nil else {
                abandoned = true
                return invalid(open.span)
            }
            let value = parseExpression()
            entries.append((key, value))
            children += [key, value]
            guard accept(.comma) != nil else { break }
        }
        let close = current.span
        guard expect(.rbrace) != nil else {
            abandoned = true
            return invalid(open.span)
        }
        return node(.map(entries), open.span.through(close), children: children)
    }

    /// `/segment/$(expression)/...`.
    mutating func parsePath() -> ExprID {
        let start = current.span
        var end = start
        var parts: [PathPart] = []
        var children: [ExprID] = []
        while !abandoned {
            if kind == .pathSegment {
                let token = advance()
                end = token.span
                if case .pathSegment(let decoded) = token.payload {
                    parts.append(.literal(decoded, token.span))
                }
            } else if kind == .slash && peekKind(1) == .dollarParen {
                _ = advance()
                _ = advance()
                let inner = parseExpression()
                end = current.span
                guard expect(.rparen) != nil else {
                    abandoned = true
                    break
                }
                parts.append(.interpolation(inner))
                children.append(inner)
            } else {
                break
            }
        }
        return node(.path(parts), start.through(end), children: children)
    }
}
