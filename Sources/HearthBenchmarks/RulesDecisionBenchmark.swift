// The `rules` benchmark: deciding a `create` of a user document under rules/firestore.rules,
// with the ruleset compiled once, against a no-op decision (`allow create: if true`) in the
// same run. See BENCHMARKS.md.

import Foundation
import SecurityRules

/// `HearthBenchmarks rules [--rules FILE]`.
func runRulesDecision(rulesFile: String) throws {
    let source = try String(contentsOfFile: rulesFile, encoding: .utf8)
    let result = try RulesBenchmark.profileCreate(rulesSource: source)
    guard result.allowed else { throw BenchmarkError("the benchmark's create was denied by \(rulesFile)") }
    print("Security rules: deciding a create of users/{uid} under \(rulesFile) (compiled once)")
    print("machine: \(machineDescription())")
    print("  median \(formatted(result.medianNanoseconds, 1)) ns per decision (goal <= 2000 ns: "
        + "\(result.medianNanoseconds <= 2000 ? "PASS" : "FAIL"))")
    print("  no-op decision (allow create: if true) \(formatted(result.noOpMedianNanoseconds, 1)) ns; "
        + "ratio \(formatted(result.ratio, 2))")
    print("  recording coverage (as the server's rulesets do) \(formatted(result.coverageMedianNanoseconds, 1)) ns "
        + "per decision; \(formatted(result.coverageRatio, 1))x the decision without")
}
