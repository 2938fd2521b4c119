import DocumentStore
package import SecurityRules
import Synchronization

/// The server's security rules files, as Google's emulator takes them: the server's rules file
/// (`--rules`) applies to every project, `PUT /emulator/v1/projects/{p}:securityRules`
/// replaces one project's, and without either a project is open (every request allowed).
///
/// The store decides which rules apply to a project (`DocumentStore.rules(project:)`): the
/// server's file is its default rules (`setDefaultRules`), a project's own load its rules
/// (`setRules`), compiled here with coverage, so each project's coverage report counts its own
/// requests only. This keeps what the store does not: the files, and how each last loaded, for
/// the admin endpoint's answers and the console.
package final class ProjectRules: Sendable {
    /// The rules Google's emulator reports for a project without rules (and applies: every
    /// request allowed).
    static let openRules = RulesFile(
        source: """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /{document=**} {
                  allow read, write: if true;
                }
              }
            }
            """, fileName: "OPEN_RULES")

    private struct State {
        var serverRules: RulesFile?
        /// How the server's rules file last loaded; `nil` without one.
        var serverStatus: RulesStatus?
        /// How each project's own rules (from the admin endpoint) last loaded.
        var projectStatus: [String: RulesStatus] = [:]
    }

    private let store: DocumentStore
    private let state = Mutex(State())

    init(store: DocumentStore) {
        self.store = store
    }

    /// Compiles `file` as a project's ruleset, counting coverage.
    static func compile(_ file: RulesFile) throws(RulesCompilationError) -> Ruleset {
        try Ruleset(source: file.source, fileName: file.fileName, options: .init(recordsCoverage: true))
    }

    /// Replaces the server's rules file (`nil`: open rules) for every project that has not had
    /// rules loaded through the admin endpoint.
    ///
    /// - Returns: the file's warnings.
    /// - Throws: `RulesCompilationError` when the file has errors; the rules in force stay, and
    ///   the failure is recorded for the console (`status(project:)`).
    @discardableResult
    package func setServerRules(_ file: RulesFile?) throws(RulesCompilationError) -> [Diagnostic] {
        let ruleset: Ruleset?
        do {
            ruleset = try file.map { file throws(RulesCompilationError) in try ProjectRules.compile(file) }
        } catch {
            state.withLock { state in
                if let file { state.serverStatus = .failed(file, error, keeping: state.serverStatus?.loadedAt) }
            }
            throw error
        }
        let warnings = ruleset?.warnings ?? []
        state.withLock { state in
            state.serverRules = file
            state.serverStatus = file.map { RulesStatus.loaded($0, warnings: warnings) }
            store.setDefaultRules(ruleset)
        }
        return warnings
    }

    /// The server's rules file, if any.
    package var serverRules: RulesFile? { state.withLock { $0.serverRules } }

    /// Loads rules for one project, replacing the server's rules there.
    ///
    /// - Returns: the file's warnings.
    /// - Throws: `RulesCompilationError` when the file has errors; the project keeps its rules,
    ///   and the failure is recorded for the console (`status(project:)`).
    @discardableResult
    func load(_ file: RulesFile, project: String) throws(RulesCompilationError) -> [Diagnostic] {
        let ruleset: Ruleset
        do {
            ruleset = try ProjectRules.compile(file)
        } catch {
            state.withLock { state in
                let inForce = store.hasOwnRules(project: project) ? state.projectStatus[project] : state.serverStatus
                state.projectStatus[project] = .failed(file, error, keeping: inForce?.loadedAt)
            }
            throw error
        }
        state.withLock { state in
            state.projectStatus[project] = .loaded(file, warnings: ruleset.warnings)
            store.setRules(ruleset, project: project)
        }
        return ruleset.warnings
    }

    /// How `project`'s rules last loaded: its own (admin endpoint) load if it had one, else the
    /// server's rules file; `nil` when neither was ever given (open rules).
    func status(project: String) -> RulesStatus? {
        state.withLock { state in
            state.projectStatus[project] ?? state.serverStatus
        }
    }

    /// The projects that have rules of their own (loaded, or tried, through the admin endpoint)
    /// or, with a server rules file, every project requests have named.
    var projectsWithRules: [String] {
        let tried = state.withLock { Set($0.projectStatus.keys) }
        return Array(tried.union(store.projectsWithRules))
    }

    /// Gives `project` its rules now if no request has named it before (with a server rules file,
    /// the store compiles the project's copy), so that the console lists it.
    func prepare(project: String) {
        _ = store.rules(project: project)
    }

    /// What the project's rules have covered so far; for a project without rules, the open
    /// rules with nothing evaluated, as Google's emulator reports them.
    func coverage(project: String) -> RulesCoverage {
        if let coverage = store.rules(project: project)?.coverage { return coverage }
        // The open rules compile.
        return try! ProjectRules.compile(ProjectRules.openRules).coverage!
    }
}
