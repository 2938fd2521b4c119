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

/// `hearth rules check [--strict] FILE`: prints every diagnostic of a rules file (``RulesLinter``),
/// each as `file:line:col: error: message` or `file:line:col: warning: message` with the source
/// line and a caret, and exits 1 if any is an error, or with `--strict` if there is any at all.
///
/// ```
/// $ hearth rules check --strict firestore.rules
/// firestore.rules:6:22: warning: undefined name 'fals' (did you mean 'false'?)
///       allow read: if fals;
///                      ^~~~
/// firestore.rules: 1 warning, failing under --strict
/// ```
struct RulesCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a security rules file: print its errors and warnings; exit 1 on any error.",
        discussion: """
            Warnings are for what loads but is likely a mistake: an unknown method in an allow \
            statement, an undefined name or function (with a "did you mean" hint), an unused \
            variable, an old rules_version. They fail the check only with --strict.
            """
    )

    @Flag(help: "Exit 1 on warnings too.")
    var strict = false

    @Argument(help: "The rules file, such as firestore.rules.")
    var file: String

    func run() throws {
        let source: String
        do {
            source = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw CommandFailure("Cannot read \(file): \(error.localizedDescription)")
        }
        let diagnostics = RulesLinter().check(source: source, fileName: file)
        for diagnostic in diagnostics {
            FileHandle.standardError.write(Data((diagnostic.rendered + "\n").utf8))
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        let warningCount = "\(warnings) \(warnings == 1 ? "warning" : "warnings")"
        if errors > 0 {
            let errorCount = "\(errors) \(errors == 1 ? "error" : "errors")"
            let summary = "\(file): \(errorCount)" + (warnings > 0 ? ", \(warningCount)" : "")
            FileHandle.standardError.write(Data((summary + "\n").utf8))
            throw ExitCode.failure
        }
        if strict && warnings > 0 {
            FileHandle.standardError.write(Data("\(file): \(warningCount), failing under --strict\n".utf8))
            throw ExitCode.failure
        }
        print(warnings == 0 ? "\(file): OK" : "\(file): OK, \(warningCount)")
    }
}
