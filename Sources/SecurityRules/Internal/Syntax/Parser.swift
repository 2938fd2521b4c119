/// A recursive-descent parser of the rules language. It reports every syntax error of a file:
/// after an error it skips to the next statement (`allow`, `match`, `function`, `let`,
/// `return`, or a closing brace) and goes on.
///
/// Recursion is bounded: an expression nested deeper than `maximumHeight` (through brackets,
/// unary operators or long operator chains) is reported as too complex and not built, so no
/// input can exhaust the stack of this parser or of the passes after it.
struct Parser {
    let source: SourceText
    let diagnostics: DiagnosticSink
    var tokens: [Token]
    var index = 0
    var tree = SyntaxTree()
    /// The height of each expression in `tree` (a leaf is 1).
    var heights: [Int32] = []
    /// Set when an expression got too deep; the statement is abandoned.
    var abandoned = false
    var recursionDepth = 0
    var matchNesting = 0

    /// The tallest expression tree the parser builds.
    static let maximumHeight: Int32 = 400
    /// The deepest recursion of the expression parser.
    static let maximumRecursion = 300

    init(source: SourceText, diagnostics: DiagnosticSink) {
        self.source = source
        self.diagnostics = diagnostics
        self.tokens = Lexer.tokenize(source, diagnostics: diagnostics)
    }

    /// Parses a whole file.
    static func parse(_ source: SourceText, diagnostics: DiagnosticSink) -> SyntaxTree {
        var parser = Parser(source: source, diagnostics: diagnostics)
        parser.parseFile()
        return parser.tree
    }

    // MARK: Tokens

    var current: Token { tokens[index] }
    var kind: TokenKind { tokens[index].kind }

    func peekKind(_ ahead: Int) -> TokenKind {
        let position = index + ahead
        return position < tokens.count ? tokens[position].kind : .eof
    }

    mutating func advance() -> Token {
        let token = tokens[index]
        if token.kind != .eof { index += 1 }
        return token
    }

    /// Consumes a token of `kind` if there is one.
    mutating func accept(_ kind: TokenKind) -> Token? {
        guard self.kind == kind else { return nil }
        return advance()
    }

    /// The source text of a token, for messages.
    func text(of token: Token) -> String {
        token.kind == .eof ? "<EOF>" : source.slice(token.span)
    }

    mutating func unexpected(_ token: Token) {
        diagnostics.syntaxError("Unexpected '\(text(of: token))'.", at: token.span)
    }

    /// Consumes a token of `kind`, or reports it missing and returns `nil`.
    mutating func expect(_ kind: TokenKind) -> Token? {
        if let token = accept(kind) { return token }
        diagnostics.syntaxError("missing '\(kind.spelling)' at '\(text(of: current))'", at: current.span)
        return nil
    }

    // MARK: File

    mutating func parseFile() {
        if source.scalars.allSatisfy({ $0.properties.isWhitespace }) {
            diagnostics.fileDiagnostic(.error, "Rules content empty. Compilation aborted.")
            return
        }
        if kind == .rulesVersion { parseVersion() }
        while kind != .eof {
            switch kind {
            case .service:
                if let service = parseService() { tree.services.append(service) }
            case .function:
                if let function = parseFunction() { tree.topLevelFunctions.append(function) }
            case .import:
                diagnostics.error("Import statements are not allowed.", at: current.span)
                skipToSemicolon()
            case .rulesVersion:
                unexpected(current)
                parseVersion()
            default:
                unexpected(current)
                _ = advance()
                skipToStatement(stopAtClosingBrace: false)
            }
        }
        if tree.services.isEmpty && !diagnostics.hasErrors {
            diagnostics.syntaxError(
                "mismatched input '<EOF>' expecting {'function', 'import', 'service', 'rules_version'}",
                at: current.span)
        }
    }

    mutating func parseVersion() {
        let keyword = advance()
        guard expect(.assign) != nil else {
            skipToStatement(stopAtClosingBrace: false)
            return
        }
        guard current.kind == .string, case .string(let value) = current.payload else {
            diagnostics.syntaxError("mismatched input '\(text(of: current))' expecting STRING", at: current.span)
            skipToStatement(stopAtClosingBrace: false)
            return
        }
        _ = advance()
        _ = accept(.semicolon)
        tree.version = (value, keyword.span)
    }

    // MARK: Recovery

    /// Skips to a token that can start a statement, or to the `}` closing the current block.
    mutating func skipToStatement(stopAtClosingBrace: Bool = true) {
        var depth = 0
        while kind != .eof {
            switch kind {
            case .allow, .match, .function, .let, .return, .service:
                if depth == 0 { return }
            case .lbrace:
                depth += 1
            case .rbrace:
                if depth == 0 {
                    if stopAtClosingBrace { return }
                } else {
                    depth -= 1
                }
            case .semicolon where depth == 0:
                _ = advance()
                return
            default:
                break
            }
            _ = advance()
        }
    }

    mutating func skipToSemicolon() {
        while kind != .eof && kind != .semicolon { _ = advance() }
        _ = accept(.semicolon)
    }
}
