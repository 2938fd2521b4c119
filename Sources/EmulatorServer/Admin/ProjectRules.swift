import DocumentStore
import SecurityRules
import Synchronization

/// Which security rules each project has, as Google's emulator decides it: the server's rules
/// file (`--rules`) applies to every project, `PUT /emulator/v1/projects/{p}:securityRules`
/// replaces one project's, and without either a project is open (every request allowed).
///
/// Each project gets its own compiled `Ruleset`, so that its coverage report counts its own
/// requests only. Projects appear lazily: `prepare(project:)` gives a project the server's rules
/// the first time a request names it.
public final class ProjectRules: Sendable {
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

    private enum Origin {
        /// The server's rules file (or none) applies.
        case serverRules
        /// Loaded for this project through the admin endpoint.
        case loaded
    }

    private struct State {
        var serverRules: RulesFile?
        var projects: [String: Origin] = [:]
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
    public func setServerRules(_ file: RulesFile?) throws(RulesCompilationError) -> [Diagnostic] {
        let warnings: [Diagnostic]
        do {
            warnings = try file.map { file throws(RulesCompilationError) in try ProjectRules.compile(file).warnings } ?? []
        } catch {
            state.withLock { state in
                if let file { state.serverStatus = .failed(file, error, keeping: state.serverStatus?.loadedAt) }
            }
            throw error
        }
        let projects = state.withLock { state in
            state.serverRules = file
            state.serverStatus = file.map { RulesStatus.loaded($0, warnings: warnings) }
            return state.projects.filter { $0.value == .serverRules }.map(\.key)
        }
        // The file compiled above, so it compiles for each project.
        let rulesets = projects.map { ($0, file.flatMap { try? ProjectRules.compile($0) }) }
        state.withLock { state in
            for (project, ruleset) in rulesets where state.projects[project] == .serverRules && state.serverRules == file {
                store.setRules(ruleset, project: project)
            }
        }
        return warnings
    }

    /// The server's rules file, if any.
    public var serverRules: RulesFile? { state.withLock { $0.serverRules } }

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
                let inForce = state.projects[project] == .loaded ? state.projectStatus[project] : state.serverStatus
                state.projectStatus[project] = .failed(file, error, keeping: inForce?.loadedAt)
            }
            throw error
        }
        state.withLock { state in
            state.projects[project] = .loaded
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
        state.withLock { state in
            state.serverRules == nil ? Array(state.projectStatus.keys) : Array(state.projects.keys)
        }
    }

    /// Gives `project` the server's rules if no request has named it before.
    func prepare(project: String) {
        while true {
            let (known, file) = state.withLock { ($0.projects[project] != nil, $0.serverRules) }
            if known { return }
            // A file accepted by `setServerRules` compiles.
            let ruleset = file.flatMap { try? ProjectRules.compile($0) }
            let settled = state.withLock { state -> Bool in
                if state.projects[project] != nil { return true }
                guard state.serverRules == file else { return false }  // replaced meanwhile: again
                state.projects[project] = .serverRules
                store.setRules(ruleset, project: project)
                return true
            }
            if settled { return }
        }
    }

    /// What the project's rules have covered so far; for a project without rules, the open
    /// rules with nothing evaluated, as Google's emulator reports them.
    func coverage(project: String) -> RulesCoverage {
        prepare(project: project)
        if let coverage = store.rules(project: project)?.coverage { return coverage }
        // The open rules compile.
        return try! ProjectRules.compile(ProjectRules.openRules).coverage!
    }
}
