import Foundation
import SecurityRules

/// How a project's rules last loaded, for the console: the file, when its rules took effect,
/// and its diagnostics (the warnings of the rules in force, or the errors of a reload that
/// failed, the last good rules staying in force then).
struct RulesStatus: Sendable {
    /// The name of the file last loaded (or tried).
    var fileName: String
    /// When the rules in force were loaded; `nil` if none ever loaded.
    var loadedAt: Date?
    /// The warnings of the rules in force, or the errors of the failed reload.
    var diagnostics: [Diagnostic]
    /// Whether the last load failed.
    var failed: Bool

    /// The status after `file` loaded with `warnings`, now.
    static func loaded(_ file: RulesFile, warnings: [Diagnostic]) -> RulesStatus {
        RulesStatus(fileName: file.fileName, loadedAt: Date(), diagnostics: warnings, failed: false)
    }

    /// The status after `file` failed to load with `error`, the rules loaded at `loadedAt`
    /// (if any) staying in force.
    static func failed(_ file: RulesFile, _ error: RulesCompilationError, keeping loadedAt: Date?) -> RulesStatus {
        RulesStatus(fileName: file.fileName, loadedAt: loadedAt, diagnostics: error.diagnostics, failed: true)
    }
}
