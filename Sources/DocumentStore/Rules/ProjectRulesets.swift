import SecurityRules
import Synchronization

/// Which security rules apply to each project of a store, the one place that decides it: the
/// project's own rules, else the default rules every project gets, else none (every request
/// allowed, as in Google's emulator started without rules).
///
/// Default rules that record coverage are compiled again for each project, the first time its
/// rules are asked for, so that a project's coverage counts its own requests only; replacing
/// the default rules drops those copies (each project gets a copy of the new rules when next
/// asked). Other default rules are shared by every project.
final class ProjectRulesets: Sendable {
    private struct State {
        var defaultRules: Ruleset?
        var own: [String: Ruleset] = [:]
        /// The default rules of each project that asked for them: `defaultRules` itself, or its
        /// copy when it records coverage.
        var defaults: [String: Ruleset] = [:]
        /// Every project that asked for the default rules, since there were any.
        var askedForDefaults: Set<String> = []
    }

    private let state = Mutex(State())

    /// The rules in force for `project`, if any.
    func rules(project: String) -> Ruleset? {
        while true {
            let (found, template) = state.withLock { state -> (Ruleset?, Ruleset?) in
                (state.own[project] ?? state.defaults[project], state.defaultRules)
            }
            if let found { return found }
            guard let template else { return nil }
            // Compiled outside the lock; the template compiled, so its source compiles again.
            let copy =
                template.options.recordsCoverage
                ? (try? Ruleset(source: template.source, fileName: template.fileName, options: template.options))
                    ?? template
                : template
            let settled = state.withLock { state -> Ruleset? in
                if let found = state.own[project] ?? state.defaults[project] { return found }
                guard state.defaultRules === template else { return nil }  // replaced meanwhile: again
                state.defaults[project] = copy
                state.askedForDefaults.insert(project)
                return copy
            }
            if let settled { return settled }
        }
    }

    /// Sets (`nil`: removes) the rules of `project` alone.
    func setOwn(_ ruleset: Ruleset?, project: String) {
        state.withLock { $0.own[project] = ruleset }
    }

    /// Whether `project` has rules of its own.
    func hasOwn(project: String) -> Bool {
        state.withLock { $0.own[project] != nil }
    }

    /// Replaces the default rules (`nil`: none) of every project without rules of its own.
    func setDefault(_ ruleset: Ruleset?) {
        state.withLock { state in
            state.defaultRules = ruleset
            state.defaults = [:]
            if ruleset == nil { state.askedForDefaults = [] }
        }
    }

    /// The default rules, if any.
    var defaultRules: Ruleset? {
        state.withLock { $0.defaultRules }
    }

    /// The projects with rules in force: their own, or the default rules, if any, once asked
    /// for (before they were last replaced, too).
    var projects: Set<String> {
        state.withLock { Set($0.own.keys).union($0.askedForDefaults) }
    }
}
