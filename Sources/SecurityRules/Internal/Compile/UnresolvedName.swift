/// A name the compiler could not resolve: an `allow` method, a variable or a function. The
/// compiler reports it with Google's message ("Invalid variable name: x."); the linter rewords
/// it and suggests the closest of the `candidates`.
struct UnresolvedName: Sendable, Hashable {
    /// What kind of name it is.
    enum Kind: Sendable, Hashable {
        /// A method of an `allow` statement (`allow raed: ...`).
        case method
        /// An identifier used as a value that no scope binds.
        case variable
        /// A function, global (`foo()`, `math.foo()`) or a method of a value (`x.foo()`).
        case function
    }

    let kind: Kind
    /// The name as written; `math.foo` for a namespaced function.
    let name: String
    /// The names that would have resolved in its place, the likeliest kind first.
    let candidates: [String]

    /// The warning of Google's rules compiler.
    var googleMessage: String {
        switch kind {
        case .method: "Invalid method name: \(name)."
        case .variable: "Invalid variable name: \(name)."
        case .function: "Invalid function name: \(name)."
        }
    }

    /// The methods an `allow` statement accepts, in the order the documentation lists them.
    static let methods = ["read", "write", "get", "list", "create", "update", "delete"]

    /// The names every expression can use without a declaration: the literals, `request`,
    /// `resource` and the namespaces of the global functions (`math`, `timestamp`, ...).
    static let globalValues = ["true", "false", "null", "request", "resource"] + Library.namespaces.sorted()

    /// The global functions called without a namespace (`exists`, `get`, `int`, ...).
    static let globalFunctions = Library.globals.keys.filter { !$0.contains(".") }.sorted()
}
