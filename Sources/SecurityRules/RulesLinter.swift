/// Checks a rules file for what `hearth rules check` reports: every error and warning of the
/// compiler, with each name that does not resolve reworded and given the likeliest fix.
///
/// A file with such names still loads, in Hearth as in Google's emulator (which warns
/// "Invalid method name: raed." and "Invalid variable name: fals."), but the statement never
/// allows anything: an unknown `allow` method matches no request, and an undefined name fails
/// the condition whenever it is evaluated. The linter reports them as:
///
/// - an unknown method of an `allow` statement (the methods are `read`, `write`, `get`,
///   `list`, `create`, `update` and `delete`),
/// - an undefined name: an identifier bound by no enclosing match's path variables (`{id}`,
///   `{rest=**}`), no parameter or `let` of the enclosing function, and not a global of the
///   language (`request`, `resource`, `true`, `math`, ...),
/// - an unknown function: declared nowhere in scope and not in the standard library.
///
/// ```swift
/// let diagnostics = RulesLinter().check(source: text, fileName: "firestore.rules")
/// for diagnostic in diagnostics { print(diagnostic.rendered) }
/// // firestore.rules:6:22: warning: undefined name 'fals' (did you mean 'false'?)
/// //       allow read: if fals;
/// //                      ^~~~
/// ```
///
/// The other diagnostics keep the messages of Google's rules compiler, as ``Ruleset/check(source:fileName:)``
/// gives them.
public struct RulesLinter: Sendable {
    /// Creates a linter.
    public init() {}

    /// Every diagnostic of a rules file, errors and warnings, in source order; empty for a
    /// clean file. After a syntax error, only the syntax errors: names are not checked.
    public func check(source: String, fileName: String = "firestore.rules") -> [Diagnostic] {
        let sink = Ruleset.compile(source: source, fileName: fileName).2
        var reworded: [Diagnostic: Diagnostic] = [:]
        for (name, diagnostic) in sink.unresolvedNames {
            reworded[diagnostic] = Diagnostic(
                severity: .warning, message: RulesLinter.message(for: name), fileName: diagnostic.fileName,
                range: diagnostic.range, sourceLine: diagnostic.sourceLine,
                sourceLineColumn: diagnostic.sourceLineColumn)
        }
        return sink.sorted.map { reworded[$0] ?? $0 }
    }

    /// `unknown method 'raed' (did you mean 'read'?)`, `undefined name 'fals' (did you mean
    /// 'false'?)`, `unknown function 'foo'`.
    static func message(for name: UnresolvedName) -> String {
        let suggestion = Suggestion.closest(to: name.name, among: name.candidates)
        let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
        switch name.kind {
        case .method:
            let known = UnresolvedName.methods.joined(separator: ", ")
            return "unknown method '\(name.name)'" + (suggestion == nil ? " (the methods are \(known))" : hint)
        case .variable:
            return "undefined name '\(name.name)'" + hint
        case .function:
            return "unknown function '\(name.name)'" + hint
        }
    }
}
