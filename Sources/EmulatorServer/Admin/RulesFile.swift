import Foundation
public import SecurityRules

/// A security rules file for the emulator: its text and the name its diagnostics and coverage
/// reports use.
///
/// ```swift
/// let rules = try RulesFile(contentsOfFile: "rules/firestore.rules")
/// var configuration = EmulatorServerConfiguration(port: 8080)
/// configuration.rules = rules          // every project's rules, as `--rules` does
/// ```
public struct RulesFile: Sendable, Hashable {
    /// The rules source.
    public var source: String
    /// The file's name (a path for a file read from disk).
    public var fileName: String

    /// Rules given as text.
    public init(source: String, fileName: String = "firestore.rules") {
        self.source = source
        self.fileName = fileName
    }

    /// The rules file at `path`, named by that path as given (so diagnostics read
    /// `rules/firestore.rules:5:26: error: ...`).
    ///
    /// - Throws: the file system's error when the file cannot be read or is not UTF-8.
    public init(contentsOfFile path: String) throws {
        self.init(source: try String(contentsOfFile: path, encoding: .utf8), fileName: path)
    }
}

extension RulesFile {
    /// Compiles the file once, to check it before a server uses it.
    ///
    /// - Returns: the file's warnings.
    /// - Throws: `RulesCompilationError` with every diagnostic when the file has errors.
    public func check() throws(RulesCompilationError) -> [Diagnostic] {
        try ProjectRules.compile(self).warnings
    }
}
