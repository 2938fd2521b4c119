import Foundation

/// The security rules a `RulesTestEnvironment` runs with: a rules file, or rules as text.
///
/// ```swift
/// .file("rules/firestore.rules")
/// .source("rules_version = '2'; service cloud.firestore { ... }")
/// ```
public struct RulesSource: Sendable, Hashable {
    /// The rules text.
    public let text: String
    /// The name diagnostics and coverage reports use (the path, for a file).
    public let fileName: String

    /// Rules given as text.
    public static func source(_ text: String, fileName: String = "firestore.rules") -> RulesSource {
        RulesSource(text: text, fileName: fileName)
    }

    /// The rules file at `path` (relative to the current directory, or absolute).
    ///
    /// - Throws: the file system's error when the file cannot be read as UTF-8.
    public static func file(_ path: String) throws -> RulesSource {
        RulesSource(text: try String(contentsOfFile: path, encoding: .utf8), fileName: path)
    }
}
