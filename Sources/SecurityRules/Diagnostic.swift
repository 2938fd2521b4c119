/// A problem found while loading a rules file: a syntax error, or a load-time check that failed
/// (an unknown function, a wrong argument count, an undefined name, a limit).
///
/// Messages and severities follow Google's rules compiler: what it rejects is an ``Severity-swift.enum/error``,
/// what it only reports (such as an unknown function, which fails at evaluation) is a
/// ``Severity-swift.enum/warning``. ``RulesLinter`` rewords the warnings about names that do not
/// resolve and suggests the likeliest fix. ``rendered`` gives the compiler-style text:
///
/// ```text
/// firestore.rules:5:22: warning: Invalid function name: foo.
///       allow read: if foo(1);
///                      ^~~
/// ```
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// The ruleset cannot be loaded.
        case error
        /// The ruleset loads, but something in it is suspicious or will fail when evaluated.
        case warning
    }

    /// Whether the diagnostic stops the ruleset from loading.
    public let severity: Severity
    /// What is wrong, in the words of Google's rules compiler where it has words for it.
    public let message: String
    /// Where the problem is, or `nil` for a problem of the whole file (such as the version warning).
    public let range: SourceRange?
    /// The file the diagnostic is about.
    public let fileName: String
    /// The source line at `range.start`, for rendering; empty without a range. A line longer
    /// than 200 characters is cut to the 200 around `range.start`, with `…` where it was cut
    /// (``location`` stays exact).
    public let sourceLine: String
    /// The column of ``sourceLine``, from 1, at which `range.start` is: `range.start.column`
    /// unless the line was cut.
    public let sourceLineColumn: Int

    /// Creates a diagnostic. `sourceLineColumn` defaults to the column of `range.start`
    /// (`sourceLine` is the whole line).
    public init(
        severity: Severity, message: String, fileName: String, range: SourceRange?, sourceLine: String,
        sourceLineColumn: Int? = nil
    ) {
        self.severity = severity
        self.message = message
        self.fileName = fileName
        self.range = range
        self.sourceLine = sourceLine
        self.sourceLineColumn = sourceLineColumn ?? range?.start.column ?? 1
    }

    /// The position the diagnostic points at.
    public var location: SourceLocation? { range?.start }

    /// `file:line:col: severity: message`, then the source line and a caret line marking the
    /// range (a `^` under its first character, `~` under the rest of it on that line).
    public var rendered: String {
        guard let range else { return "\(fileName): \(severity.rawValue): \(message)" }
        let start = range.start
        var caret = ""
        var column = 1
        for scalar in sourceLine.unicodeScalars {
            guard column < sourceLineColumn else { break }
            caret.unicodeScalars.append(scalar == "\t" ? "\t" : " ")
            column += 1
        }
        while column < sourceLineColumn {
            caret += " "
            column += 1
        }
        caret += "^"
        let lineLength = sourceLine.unicodeScalars.count
        let endColumn =
            range.end.line == start.line ? sourceLineColumn + range.end.column - start.column : lineLength + 1
        let tildes = min(endColumn, lineLength + 1) - sourceLineColumn - 1
        if tildes > 0 { caret += String(repeating: "~", count: tildes) }
        return "\(start): \(severity.rawValue): \(message)\n\(sourceLine)\n\(caret)"
    }

    /// The same as ``rendered``.
    public var description: String { rendered }
}
