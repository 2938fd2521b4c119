/// The kinds of token of the rules language.
enum TokenKind: UInt8, Sendable {
    case identifier, int, float, string, bytes, pathSegment
    case lbrace, rbrace, lparen, rparen, lbracket, rbracket
    case comma, semicolon, colon, dot, question, assign
    case eq, ne, lt, le, gt, ge, and, or, bang
    case plus, minus, star, slash, percent, plusPlus, minusMinus, dollarParen
    // Keywords.
    case service, match, allow, `if`, function, `return`, `let`, `true`, `false`, null, `in`, `is`
    case rulesVersion, `import`
    /// A character no token begins with, or a malformed literal.
    case invalid
    case eof

    static let keywords: [String: TokenKind] = [
        "service": .service, "match": .match, "allow": .allow, "if": .if, "function": .function,
        "return": .return, "let": .let, "true": .true, "false": .false, "null": .null, "in": .in,
        "is": .is, "rules_version": .rulesVersion, "import": .import,
    ]

    /// How the token is spelled in messages.
    var spelling: String {
        switch self {
        case .identifier: "identifier"
        case .int, .float: "number"
        case .string: "string"
        case .bytes: "bytes"
        case .pathSegment: "path"
        case .lbrace: "{"
        case .rbrace: "}"
        case .lparen: "("
        case .rparen: ")"
        case .lbracket: "["
        case .rbracket: "]"
        case .comma: ","
        case .semicolon: ";"
        case .colon: ":"
        case .dot: "."
        case .question: "?"
        case .assign: "="
        case .eq: "=="
        case .ne: "!="
        case .lt: "<"
        case .le: "<="
        case .gt: ">"
        case .ge: ">="
        case .and: "&&"
        case .or: "||"
        case .bang: "!"
        case .plus: "+"
        case .minus: "-"
        case .star: "*"
        case .slash: "/"
        case .percent: "%"
        case .plusPlus: "++"
        case .minusMinus: "--"
        case .dollarParen: "$("
        case .service: "service"
        case .match: "match"
        case .allow: "allow"
        case .if: "if"
        case .function: "function"
        case .return: "return"
        case .let: "let"
        case .true: "true"
        case .false: "false"
        case .null: "null"
        case .in: "in"
        case .is: "is"
        case .rulesVersion: "rules_version"
        case .import: "import"
        case .invalid: "invalid input"
        case .eof: "<EOF>"
        }
    }
}

/// The value a literal or name token carries.
enum TokenPayload: Sendable {
    case none
    case name(String)
    case int(Int64)
    case float(Double)
    case string(String)
    case bytes([UInt8])
    /// `9223372036854775808`: valid only after a unary minus.
    case minimumIntegerMagnitude
    /// A path segment's text after URL decoding, or `nil` if it does not decode.
    case pathSegment(String?)
}

/// One token: its kind, where it is, and the value of a literal.
struct Token: Sendable {
    var kind: TokenKind
    var span: SourceSpan
    var payload: TokenPayload = .none

    var name: String {
        if case .name(let name) = payload { return name }
        return ""
    }
}
