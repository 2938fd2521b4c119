/// An index of an expression in a `SyntaxTree`'s arena.
typealias ExprID = Int32

/// Unary operators.
enum UnaryOperator: Sendable {
    case not, negate
}

/// Binary operators, from the tightest binding to the loosest (see `precedence`).
enum BinaryOperator: Sendable {
    case multiply, divide, modulo
    case add, subtract
    case less, lessOrEqual, greater, greaterOrEqual
    case equal, notEqual
    case `in`
    case and, or

    /// Firestore's precedence, larger binds tighter: `* / %` over `+ -` over `< <= > >=` over
    /// `== !=` over `is` over `in` over `&&` over `||`.
    var precedence: Int {
        switch self {
        case .multiply, .divide, .modulo: 9
        case .add, .subtract: 8
        case .less, .lessOrEqual, .greater, .greaterOrEqual: 7
        case .equal, .notEqual: 6
        case .in: 4
        case .and: 3
        case .or: 2
        }
    }

    /// The precedence of the `is` operator, between `==` and `in`.
    static let isPrecedence = 5

    var symbol: String {
        switch self {
        case .multiply: "*"
        case .divide: "/"
        case .modulo: "%"
        case .add: "+"
        case .subtract: "-"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        case .equal: "=="
        case .notEqual: "!="
        case .in: "in"
        case .and: "&&"
        case .or: "||"
        }
    }
}

/// A part of a path literal: a literal segment, or `$(expression)`.
enum PathPart: Sendable {
    case literal(String?, SourceSpan)
    case interpolation(ExprID)
}

/// What an expression is.
enum ExprKind: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Double)
    case string(String)
    case bytes([UInt8])
    case identifier(String)
    case path([PathPart])
    case list([ExprID])
    case map([(key: ExprID, value: ExprID)])
    case paren(ExprID)
    case member(ExprID, name: String, nameSpan: SourceSpan)
    case index(ExprID, ExprID)
    case range(ExprID, ExprID?, ExprID?)
    /// A call; the callee is an identifier (`f(x)`, `math.abs` is a member of `math`) or a member access.
    case call(callee: ExprID, arguments: [ExprID])
    case unary(UnaryOperator, ExprID)
    case binary(BinaryOperator, ExprID, ExprID)
    case ternary(ExprID, ExprID, ExprID)
    case isType(ExprID, typeName: String, typeSpan: SourceSpan)
    /// Where a syntax error was recovered from.
    case invalid

    /// The identifier at the root of a member chain, if the chain is one.
    func rootIdentifier(_ tree: SyntaxTree) -> ExprKind? {
        var kind = self
        while case .member(let base, _, _) = kind { kind = tree[base].kind }
        if case .identifier = kind { return kind }
        return nil
    }

    var isLiteral: Bool {
        switch self {
        case .null, .bool, .int, .float, .string, .bytes: true
        default: false
        }
    }
}

/// One expression node.
struct ExprNode: Sendable {
    var kind: ExprKind
    var span: SourceSpan
}

/// A `let` in a function body.
struct LetDecl: Sendable {
    var name: String
    var nameSpan: SourceSpan
    var value: ExprID
    var span: SourceSpan
}

/// A function declaration.
struct FunctionDecl: Sendable {
    var name: String
    var nameSpan: SourceSpan
    var parameters: [(name: String, span: SourceSpan)]
    var lets: [LetDecl]
    var body: ExprID
    var bodySpan: SourceSpan
    var span: SourceSpan
}

/// `allow methods: if condition;`.
struct AllowDecl: Sendable {
    var methods: [(name: String, span: SourceSpan)]
    var condition: ExprID?
    var span: SourceSpan
}

/// One segment of a match path.
enum PatternSegment: Sendable {
    case literal(String)
    /// `{name}` or `{name=*}`.
    case variable(String)
    /// `{name=**}`.
    case glob(String)
}

/// A `match` block.
struct MatchDecl: Sendable {
    /// Each segment, its span (from the slash before it), and the span of its variable's name.
    var segments: [(segment: PatternSegment, span: SourceSpan, nameSpan: SourceSpan)]
    var pathSpan: SourceSpan
    var functions: [FunctionDecl]
    var allows: [AllowDecl]
    var matches: [MatchDecl]
    var span: SourceSpan
}

/// A `service` block.
struct ServiceDecl: Sendable {
    var name: String
    var nameSpan: SourceSpan
    var functions: [FunctionDecl]
    var matches: [MatchDecl]
    var span: SourceSpan
}

/// A parsed rules file: declarations, and all expressions in one arena.
struct SyntaxTree: Sendable {
    var version: (value: String, span: SourceSpan)?
    var services: [ServiceDecl] = []
    /// Functions declared outside any service.
    var topLevelFunctions: [FunctionDecl] = []
    var expressions: [ExprNode] = []

    subscript(_ id: ExprID) -> ExprNode { expressions[Int(id)] }

    mutating func add(_ kind: ExprKind, _ span: SourceSpan) -> ExprID {
        expressions.append(ExprNode(kind: kind, span: span))
        return ExprID(expressions.count - 1)
    }
}
