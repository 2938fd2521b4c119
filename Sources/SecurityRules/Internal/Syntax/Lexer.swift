/// Splits a rules source into tokens, the way Google's rules lexer does.
///
/// Two choices of that lexer matter for what parses:
/// - `/` immediately followed by a path character is a path segment (`/users`, `/2`), so
///   division needs a space after the slash (`a / 2`), as in Firestore.
/// - Number literals have no exponent, and a leading zero stands alone (`007` is three tokens).
struct Lexer {
    let source: SourceText
    let scalars: [Unicode.Scalar]
    let diagnostics: DiagnosticSink
    var position = 0

    init(source: SourceText, diagnostics: DiagnosticSink) {
        self.source = source
        self.scalars = source.scalars
        self.diagnostics = diagnostics
    }

    /// All tokens, ending with `.eof`.
    static func tokenize(_ source: SourceText, diagnostics: DiagnosticSink) -> [Token] {
        var lexer = Lexer(source: source, diagnostics: diagnostics)
        var tokens: [Token] = []
        tokens.reserveCapacity(source.count / 3)
        while true {
            let token = lexer.next()
            tokens.append(token)
            if token.kind == .eof { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let index = position + ahead
        return index < scalars.count ? scalars[index] : nil
    }

    private mutating func next() -> Token {
        skipTrivia()
        let start = position
        guard let scalar = peek() else { return Token(kind: .eof, span: SourceSpan(start, start)) }
        if Lexer.isIdentifierStart(scalar) {
            if scalar == "b", let quote = peek(1), quote == "'" || quote == "\"" {
                return lexBytes()
            }
            return lexIdentifier()
        }
        if Lexer.isDigit(scalar) || (scalar == "." && peek(1).map(Lexer.isDigit) == true) {
            return lexNumber()
        }
        if scalar == "'" || scalar == "\"" { return lexString() }
        if scalar == "/" { return lexSlash() }
        position += 1
        func token(_ kind: TokenKind, length: Int = 1) -> Token {
            position = start + length
            return Token(kind: kind, span: SourceSpan(start, start + length))
        }
        let next = peek()
        switch scalar {
        case "{": return token(.lbrace)
        case "}": return token(.rbrace)
        case "(": return token(.lparen)
        case ")": return token(.rparen)
        case "[": return token(.lbracket)
        case "]": return token(.rbracket)
        case ",": return token(.comma)
        case ";": return token(.semicolon)
        case ":": return token(.colon)
        case ".": return token(.dot)
        case "?": return token(.question)
        case "*": return token(.star)
        case "%": return token(.percent)
        case "=": return next == "=" ? token(.eq, length: 2) : token(.assign)
        case "!": return next == "=" ? token(.ne, length: 2) : token(.bang)
        case "<": return next == "=" ? token(.le, length: 2) : token(.lt)
        case ">": return next == "=" ? token(.ge, length: 2) : token(.gt)
        case "+": return next == "+" ? token(.plusPlus, length: 2) : token(.plus)
        case "-": return next == "-" ? token(.minusMinus, length: 2) : token(.minus)
        case "&" where next == "&": return token(.and, length: 2)
        case "|" where next == "|": return token(.or, length: 2)
        case "$" where next == "(": return token(.dollarParen, length: 2)
        default:
            let span = SourceSpan(start, start + 1)
            diagnostics.syntaxError("token recognition error at: '\(scalar)'", at: span)
            return Token(kind: .invalid, span: span)
        }
    }

    // MARK: Trivia

    private mutating func skipTrivia() {
        while let scalar = peek() {
            switch scalar {
            case " ", "\t", "\n", "\r", "\u{0C}":
                position += 1
            case "/" where peek(1) == "/":
                while let next = peek(), next != "\n" { position += 1 }
            case "/" where peek(1) == "*":
                guard let end = blockCommentEnd(from: position) else {
                    // No closing `*/`: the longest token here is a path segment or a slash.
                    return
                }
                // A path segment may be longer than the comment (`/*a*/b`): the longest wins.
                if pathSegmentEnd(from: position) > end { return }
                position = end
            default:
                return
            }
        }
    }

    /// The offset just after the `*/` closing a block comment that starts at `start`.
    private func blockCommentEnd(from start: Int) -> Int? {
        var index = start + 2
        while index + 1 < scalars.count {
            if scalars[index] == "*" && scalars[index + 1] == "/" { return index + 2 }
            index += 1
        }
        return nil
    }

    // MARK: Names and numbers

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
    }

    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || isDigit(scalar)
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }

    private mutating func lexIdentifier() -> Token {
        let start = position
        while let scalar = peek(), Lexer.isIdentifierPart(scalar) { position += 1 }
        let span = SourceSpan(start, position)
        let name = source.slice(span)
        if let keyword = TokenKind.keywords[name] {
            return Token(kind: keyword, span: span)
        }
        return Token(kind: .identifier, span: span, payload: .name(name))
    }

    private mutating func lexNumber() -> Token {
        let start = position
        while let scalar = peek(), Lexer.isDigit(scalar) { position += 1 }
        let digitsEnd = position
        if peek() == "." {
            position += 1
            while let scalar = peek(), Lexer.isDigit(scalar) { position += 1 }
            let span = SourceSpan(start, position)
            let text = source.slice(span)
            let value = Double(text.hasPrefix(".") ? "0" + text : (text.hasSuffix(".") ? text + "0" : text)) ?? 0
            return Token(kind: .float, span: span, payload: .float(value))
        }
        if scalars[start] == "0" && digitsEnd > start + 1 {
            // A leading zero is a token of its own, as in Google's lexer.
            position = start + 1
            return Token(kind: .int, span: SourceSpan(start, start + 1), payload: .int(0))
        }
        let span = SourceSpan(start, digitsEnd)
        let text = source.slice(span)
        if text == "9223372036854775808" {
            return Token(kind: .int, span: span, payload: .minimumIntegerMagnitude)
        }
        guard let value = Int64(text) else {
            diagnostics.error("Invalid number literal \(text).", at: span)
            return Token(kind: .int, span: span, payload: .int(0))
        }
        return Token(kind: .int, span: span, payload: .int(value))
    }

    // MARK: Slashes and path segments

    /// A character that may appear in a path segment; `%` only as `%HH`.
    static func isPathCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if isIdentifierPart(scalar) { return true }
        switch scalar {
        case "&", "'", "*", "+", "-", ".", ":", "@", "~": return true
        default: return false
        }
    }

    /// The end of the path segment token starting with the `/` at `start` (`start + 1` if none).
    private func pathSegmentEnd(from start: Int) -> Int {
        var index = start + 1
        func at(_ offset: Int) -> Unicode.Scalar? { offset < scalars.count ? scalars[offset] : nil }
        func segmentCharacterLength(_ offset: Int) -> Int {
            guard let scalar = at(offset) else { return 0 }
            if Lexer.isPathCharacter(scalar) { return 1 }
            if scalar == "%", let high = at(offset + 1), let low = at(offset + 2), high.properties.isASCIIHexDigit,
                low.properties.isASCIIHexDigit
            {
                return 3
            }
            return 0
        }
        if at(index) == "(" {
            // `/(name)`: an old-style segment, kept literally.
            var end = index + 1
            while true {
                let length = segmentCharacterLength(end)
                if length == 0 { break }
                end += length
            }
            return at(end) == ")" ? end + 1 : start + 1
        }
        while true {
            let length = segmentCharacterLength(index)
            if length == 0 { break }
            index += length
        }
        return index
    }

    private mutating func lexSlash() -> Token {
        let start = position
        let end = pathSegmentEnd(from: start)
        guard end > start + 1 else {
            position += 1
            return Token(kind: .slash, span: SourceSpan(start, start + 1))
        }
        position = end
        let span = SourceSpan(start, end)
        var raw = String.UnicodeScalarView()
        raw.append(contentsOf: scalars[(start + 1)..<end])
        return Token(kind: .pathSegment, span: span, payload: .pathSegment(Lexer.urlDecode(String(raw))))
    }

    /// Form URL decoding: `%HH` is a byte, `+` a space; `nil` if the bytes are not UTF-8.
    static func urlDecode(_ text: String) -> String? {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
