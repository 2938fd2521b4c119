import SecurityRules
import Synchronization

/// The compiled rulesets of this process, one per rules text, shared by every embedded
/// environment with those rules: compiled once, and counting coverage across every test
/// that uses them, so a report written after a run covers the whole run.
enum RulesetCache {
    private static let rulesets = Mutex<[RulesSource: Ruleset]>([:])

    /// The ruleset of `source`, compiled with coverage on the first call.
    ///
    /// - Throws: `RulesCompilationError` with every diagnostic when the rules have errors.
    static func ruleset(for source: RulesSource) throws -> Ruleset {
        if let ruleset = rulesets.withLock({ $0[source] }) { return ruleset }
        let compiled = try Ruleset(
            source: source.text, fileName: source.fileName, options: .init(recordsCoverage: true))
        return rulesets.withLock { rulesets in
            if let existing = rulesets[source] { return existing }
            rulesets[source] = compiled
            return compiled
        }
    }
}
