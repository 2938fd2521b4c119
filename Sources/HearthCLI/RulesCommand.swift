import ArgumentParser
import Foundation
import SecurityRules

/// `hearth rules`: tools for security rules files.
///
/// ```
/// $ hearth rules check firestore.rules
/// firestore.rules: OK
/// ```
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Work with Firestore security rules files.",
        subcommands: [RulesCheckCommand.self]
    )
}

/// `hearth rules check FILE`: prints every diagnostic of a rules file, each as
/// `file:line:col: error: message` with the source line and a caret, and exits non-zero if
/// any is an error.
struct RulesCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a security rules file: print its errors and warnings; exit 1 on any error."
    )

    @Argument(help: "The rules file, such as firestore.rules.")
    var file: String

    func run() throws {
        let source: String
        do {
            source = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw CommandFailure("Cannot read \(file): \(error.localizedDescription)")
        }
        let diagnostics = Ruleset.check(source: source, fileName: file)
        for diagnostic in diagnostics {
            FileHandle.standardError.write(Data((diagnostic.rendered + "\n").utf8))
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        guard errors == 0 else {
            let summary = "\(file): \(errors) \(errors == 1 ? "error" : "errors")"
                + (warnings > 0 ? ", \(warnings) \(warnings == 1 ? "warning" : "warnings")" : "")
            FileHandle.standardError.write(Data((summary + "\n").utf8))
            throw ExitCode.failure
        }
        print(warnings == 0 ? "\(file): OK" : "\(file): OK, \(warnings) \(warnings == 1 ? "warning" : "warnings")")
    }
}
