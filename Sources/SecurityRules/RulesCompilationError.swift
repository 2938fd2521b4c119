/// The error `Ruleset(source:fileName:)` throws when a rules file does not load: every
/// diagnostic of the file, errors and warnings, in source order.
///
/// ```swift
/// do {
///     let ruleset = try Ruleset(source: text, fileName: "firestore.rules")
/// } catch {
///     print(error.rendered)   // every diagnostic, compiler style
/// }
/// ```
public struct RulesCompilationError: Error, Sendable, CustomStringConvertible {
    /// All diagnostics, errors and warnings, in source order.
    public let diagnostics: [Diagnostic]

    /// Creates the error.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// The diagnostics that stop the file from loading.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Every diagnostic rendered, separated by blank lines.
    public var rendered: String { diagnostics.map(\.rendered).joined(separator: "\n\n") }

    /// The same as ``rendered``.
    public var description: String { rendered }
}
