// The `rules-fuzz` run: the rules parser and evaluator on random inputs (`RulesFuzzer`), in a
// release build, reporting the inputs checked, the decisions made, the wall time and the
// slowest decision. A crash ends the process; a hang never finishes. See BENCHMARKS.md.

import Foundation
import SecurityRules

/// `HearthBenchmarks rules-fuzz [--count N] [--seed S] [--rules FILE]`.
func runRulesFuzz(_ arguments: [String]) throws {
    var count = 1_000_000
    var seed: UInt64 = 0x5EED
    var rulesFile = "rules/firestore.rules"
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        guard let value = rest.popFirst() else { throw BenchmarkError("\(flag) needs a value") }
        switch flag {
        case "--count":
            guard let number = Int(value.replacingOccurrences(of: "_", with: "")), number > 0 else {
                throw BenchmarkError("--count needs a positive integer, got '\(value)'")
            }
            count = number
        case "--seed":
            guard let number = UInt64(value) else { throw BenchmarkError("--seed needs an integer, got '\(value)'") }
            seed = number
        case "--rules": rulesFile = value
        default: throw BenchmarkError("unknown option '\(flag)' for rules-fuzz")
        }
    }
    let projectRules = try String(contentsOfFile: rulesFile, encoding: .utf8)
    print("Security rules robustness: \(count) random inputs (seed \(seed), mutating \(rulesFile))")
    print("machine: \(machineDescription())")
    var fuzzer = RulesFuzzer(seed: seed, seedRulesets: [projectRules])
    let clock = ContinuousClock()
    let start = clock.now
    let report = fuzzer.run(count: count) { progress in
        if progress.inputs % 100_000 == 0 {
            print("  \(progress.inputs) inputs, \(progress.decisions) decisions, \(clock.now - start)")
        }
    }
    let elapsed = clock.now - start
    print("  inputs checked: \(report.inputs) (parsed and compiled, diagnostics rendered)")
    print("  rulesets evaluated: \(report.evaluatedRulesets); decisions: \(report.decisions)")
    print("  crashes: 0, hangs: 0 (the run finished)")
    print("  slowest decision: \(report.slowestDecision)")
    print("  wall time: \(elapsed)")
}
