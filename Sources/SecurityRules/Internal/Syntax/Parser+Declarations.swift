extension Parser {
    // MARK: Service

    mutating func parseService() -> ServiceDecl? {
        let keyword = advance()
        var nameParts: [String] = []
        let nameStart = current.span
        var nameEnd = current.span
        while kind == .identifier || (kind.isKeywordLike && !nameParts.isEmpty) {
            let part = advance()
            nameParts.append(text(of: part))
            nameEnd = part.span
            guard accept(.dot) != nil else { break }
        }
        if nameParts.isEmpty {
            if kind.isKeywordLike {
                diagnostics.syntaxError("Cannot use keyword as service name.", at: current.span)
                _ = advance()
            } else {
                unexpected(current)
            }
        }
        var service = ServiceDecl(
            name: nameParts.joined(separator: "."), nameSpan: nameStart.through(nameEnd), functions: [], matches: [],
            span: keyword.span)
        guard let open = expect(.lbrace) else {
            skipToStatement(stopAtClosingBrace: false)
            return nil
        }
        var declarations = 0
        while kind != .rbrace && kind != .eof {
            switch kind {
            case .function:
                if let function = parseFunction() {
                    service.functions.append(function)
                    declarations += 1
                }
            case .match:
                if let match = parseMatch() {
                    service.matches.append(match)
                    declarations += 1
                }
            case .pathSegment, .slash:
                diagnostics.syntaxError("Missing 'match' keyword before path.", at: current.span)
                skipToStatement()
            default:
                unexpected(current)
                _ = advance()
                skipToStatement()
            }
        }
        if declarations == 0 && kind == .rbrace && !diagnostics.hasErrors {
            diagnostics.syntaxError("The 'service' body must contain at least one declaration.", at: current.span)
        }
        let close = expect(.rbrace)
        service.span = keyword.span.through(close?.span ?? open.span)
        return service
    }

    // MARK: Match

    /// The deepest nesting of match blocks the parser follows (Google's limit is 10 levels).
    static let maximumMatchNesting = 100

    mutating func parseMatch() -> MatchDecl? {
        let keyword = advance()
        matchNesting += 1
        defer { matchNesting -= 1 }
        if matchNesting > Parser.maximumMatchNesting {
            diagnostics.syntaxError("Maximum allowed resource rule depth of 10 is reached.", at: keyword.span)
            // Skip the block without recursing.
            var depth = 0
            while kind != .eof {
                let token = advance()
                if token.kind == .lbrace { depth += 1 }
                if token.kind == .rbrace {
                    depth -= 1
                    if depth == 0 { break }
                }
            }
            return nil
        }
        let (segments, pathSpan) = parseMatchPath()
        guard let open = expect(.lbrace) else {
            skipToStatement()
            return nil
        }
        var match = MatchDecl(
            segments: segments, pathSpan: pathSpan, functions: [], allows: [], matches: [], span: keyword.span)
        var declarations = 0
        while kind != .rbrace && kind != .eof {
            switch kind {
            case .function:
                if let function = parseFunction() {
                    match.functions.append(function)
                    declarations += 1
                }
            case .allow:
                if let allow = parseAllow() {
                    match.allows.append(allow)
                    declarations += 1
                }
            case .match:
                if let nested = parseMatch() {
                    match.matches.append(nested)
                    declarations += 1
                }
            case .pathSegment, .slash:
                diagnostics.syntaxError("Missing 'match' keyword before path.", at: current.span)
                _ = advance()
                skipToStatement()
            default:
                unexpected(current)
                _ = advance()
                skipToStatement()
            }
        }
        if declarations == 0 && kind == .rbrace && !diagnostics.hasErrors {
            diagnostics.syntaxError("The 'match' body must contain at least one declaration.", at: current.span)
        }
        let close = expect(.rbrace)
        match.span = keyword.span.through(close?.span ?? open.span)
        return match
    }

    /// `/literal/{variable}/{glob=**}`: path segment tokens, or `/` followed by `{...}`.
    mutating func parseMatchPath() -> ([(segment: PatternSegment, span: SourceSpan, nameSpan: SourceSpan)], SourceSpan) {
        var segments: [(segment: PatternSegment, span: SourceSpan, nameSpan: SourceSpan)] = []
        let start = current.span
        var end = current.span
        while true {
            if kind == .pathSegment {
                let token = advance()
                end = token.span
                if case .pathSegment(let decoded) = token.payload, let decoded {
                    segments.append((.literal(decoded), token.span, token.span))
                } else {
                    diagnostics.error("Could not URL decode path segment.", at: token.span)
                }
                continue
            }
            guard kind == .slash else { break }
            let slash = advance()
            end = slash.span
            guard kind == .lbrace else {
                diagnostics.syntaxError("Forward slash '/' found where identifier or binding expected.", at: slash.span)
                break
            }
            _ = advance()
            guard kind == .identifier else {
                unexpected(current)
                break
            }
            let name = advance()
            var segment = PatternSegment.variable(name.name)
            if accept(.assign) != nil {
                if accept(.star) != nil {
                    if accept(.star) != nil { segment = .glob(name.name) }
                } else {
                    diagnostics.syntaxError("Invalid capture expression, expected * or **.", at: current.span)
                }
            }
            guard let close = accept(.rbrace) else {
                diagnostics.syntaxError(
                    "mismatched input '\(text(of: current))' expecting '}'", at: current.span)
                break
            }
            end = close.span
            segments.append((segment, slash.span.through(close.span), name.span))
        }
        if kind == .rbrace {
            diagnostics.syntaxError("Extra closing '}' in path.", at: current.span)
            _ = advance()
        }
        if segments.isEmpty {
            diagnostics.syntaxError("mismatched input '\(text(of: current))' expecting {'/', PATH_SEGMENT}", at: current.span)
        }
        return (segments, start.through(end))
    }

    // MARK: Allow

    mutating func parseAllow() -> AllowDecl? {
        let keyword = advance()
        var methods: [(name: String, span: SourceSpan)] = []
        while kind == .identifier {
            let method = advance()
            methods.append((method.name, method.span))
            guard accept(.comma) != nil else { break }
        }
        if methods.isEmpty {
            diagnostics.syntaxError("Expected at least one 'operation' after 'allow'.", at: current.span)
            skipToStatement()
            return nil
        }
        var allow = AllowDecl(methods: methods, condition: nil, span: keyword.span.through(methods.last!.span))
        if kind == .if {
            diagnostics.syntaxError("Missing ':' before 'if' condition.", at: current.span)
        } else if accept(.colon) == nil {
            _ = accept(.semicolon)
            return allow
        } else if kind != .if {
            diagnostics.syntaxError("Missing 'if' before conditional expression.", at: current.span)
            skipToStatement()
            return nil
        }
        let ifToken = advance()
        if kind == .semicolon || kind == .rbrace {
            diagnostics.syntaxError("Missing conditional expression after 'if'.", at: ifToken.span)
            _ = accept(.semicolon)
            return nil
        }
        guard let condition = parseStatementExpression() else { return nil }
        allow.condition = condition
        allow.span = allow.span.through(tree[condition].span)
        _ = accept(.semicolon)
        return allow
    }

    // MARK: Function

    mutating func parseFunction() -> FunctionDecl? {
        let keyword = advance()
        guard kind == .identifier else {
            diagnostics.syntaxError(kind == .lparen ? "Missing 'function' id" : "Unexpected '\(text(of: current))'.", at: current.span)
            skipFunction()
            return nil
        }
        let name = advance()
        guard accept(.lparen) != nil else {
            diagnostics.syntaxError("Missing 'function' signature", at: current.span)
            skipFunction()
            return nil
        }
        var parameters: [(name: String, span: SourceSpan)] = []
        if kind != .rparen {
            while true {
                guard kind == .identifier else {
                    unexpected(current)
                    skipFunction()
                    return nil
                }
                let parameter = advance()
                parameters.append((parameter.name, parameter.span))
                guard accept(.comma) != nil else { break }
            }
        }
        guard expect(.rparen) != nil else {
            skipFunction()
            return nil
        }
        if kind == .rparen {
            diagnostics.syntaxError("Extra closing ')' at the end of parameter list.", at: current.span)
            _ = advance()
        }
        guard accept(.lbrace) != nil else {
            diagnostics.syntaxError("Missing 'function' body", at: current.span)
            skipToStatement()
            return nil
        }
        var lets: [LetDecl] = []
        while kind == .let {
            let letKeyword = advance()
            guard kind == .identifier else {
                unexpected(current)
                skipFunction(openBraces: 1)
                return nil
            }
            let letName = advance()
            guard expect(.assign) != nil, let value = parseStatementExpression() else {
                skipFunction(openBraces: 1)
                return nil
            }
            lets.append(LetDecl(name: letName.name, nameSpan: letName.span, value: value, span: letKeyword.span))
            _ = expect(.semicolon)
        }
        guard kind == .return else {
            unexpected(current)
            skipFunction(openBraces: 1)
            return nil
        }
        _ = advance()
        guard let body = parseStatementExpression() else {
            skipFunction(openBraces: 1)
            return nil
        }
        _ = accept(.semicolon)
        let close = expect(.rbrace)
        if close == nil { skipFunction(openBraces: 1) }
        return FunctionDecl(
            name: name.name, nameSpan: name.span, parameters: parameters, lets: lets, body: body,
            bodySpan: tree[body].span, span: keyword.span.through(close?.span ?? tree[body].span))
    }

    /// Skips the rest of a malformed function, through its closing brace.
    mutating func skipFunction(openBraces: Int = 0) {
        var depth = openBraces
        while kind != .eof {
            switch kind {
            case .lbrace:
                depth += 1
            case .rbrace:
                if depth == 0 { return }
                depth -= 1
                if depth == 0 {
                    _ = advance()
                    return
                }
            case .allow, .match, .function, .service:
                return
            default:
                break
            }
            _ = advance()
        }
    }

    /// An expression that ends a statement; `nil` (after skipping to the next statement) when it
    /// is malformed or followed by something that cannot follow it.
    mutating func parseStatementExpression() -> ExprID? {
        abandoned = false
        let errorsBefore = diagnostics.diagnostics.count
        let expression = parseExpression()
        if abandoned {
            skipToStatement()
            return nil
        }
        switch kind {
        case .semicolon, .rbrace, .allow, .match, .function, .let, .return, .eof:
            break
        case .plusPlus, .minusMinus:
            diagnostics.syntaxError("Increment (++) and decrement (--) operators are not supported.", at: current.span)
            skipToStatement()
            return nil
        default:
            unexpected(current)
            skipToStatement()
            return nil
        }
        if diagnostics.diagnostics.count > errorsBefore && diagnostics.hasErrors
            && diagnostics.diagnostics[errorsBefore...].contains(where: { $0.severity == .error })
        {
            skipToStatement()
            return nil
        }
        return expression
    }
}

extension TokenKind {
    /// Keywords, which some positions accept as names.
    var isKeywordLike: Bool {
        switch self {
        case .service, .match, .allow, .if, .function, .return, .let, .true, .false, .null, .in, .is, .rulesVersion,
            .import:
            true
        default: false
        }
    }
}
