/// Collects the diagnostics of one file as the lexer, parser and checks find them.
final class DiagnosticSink {
    let source: SourceText
    private(set) var diagnostics: [Diagnostic] = []
    /// Spans already reported as errors, so recovery does not report the same place twice.
    private var reportedErrorOffsets: Set<Int32> = []
    /// The names the compiler could not resolve, each with the warning reported for it.
    private(set) var unresolvedNames: [(name: UnresolvedName, diagnostic: Diagnostic)] = []

    init(source: SourceText) {
        self.source = source
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    func error(_ message: String, at span: SourceSpan) {
        add(.error, message, at: span)
    }

    func warning(_ message: String, at span: SourceSpan) {
        add(.warning, message, at: span)
    }

    /// A name the compiler could not resolve, reported with Google's warning.
    func unresolved(_ name: UnresolvedName, at span: SourceSpan) {
        unresolvedNames.append((name, add(.warning, name.googleMessage, at: span)))
    }

    /// A syntax error; a second one at the same offset is dropped.
    func syntaxError(_ message: String, at span: SourceSpan) {
        guard reportedErrorOffsets.insert(span.start).inserted else { return }
        add(.error, message, at: span)
    }

    /// A diagnostic about the whole file.
    func fileDiagnostic(_ severity: Diagnostic.Severity, _ message: String) {
        diagnostics.append(
            Diagnostic(severity: severity, message: message, fileName: source.fileName, range: nil, sourceLine: ""))
    }

    @discardableResult
    func add(_ severity: Diagnostic.Severity, _ message: String, at span: SourceSpan) -> Diagnostic {
        let range = source.range(of: span)
        let excerpt = LineExcerpt(of: source, at: range.start)
        let diagnostic = Diagnostic(
            severity: severity, message: message, fileName: source.fileName, range: range,
            sourceLine: excerpt.text, sourceLineColumn: excerpt.column)
        diagnostics.append(diagnostic)
        return diagnostic
    }

    /// Diagnostics in source order; file-wide ones first. Stable for equal positions.
    var sorted: [Diagnostic] {
        diagnostics.enumerated().sorted { left, right in
            let l = left.element.range?.start.offset ?? -1
            let r = right.element.range?.start.offset ?? -1
            return l != r ? l < r : left.offset < right.offset
        }.map(\.element)
    }
}
