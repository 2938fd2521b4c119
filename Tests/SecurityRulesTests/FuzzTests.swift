import DocumentModel
import Foundation
import Testing

@testable import HearthBenchmarks
@testable import SecurityRules

/// Random inputs for the parser and the evaluator (`RulesFuzzer`): token streams, mutated
/// rulesets, and generated rulesets with random expressions evaluated against random requests.
/// Nothing may crash or hang. `HEARTH_RULES_FUZZ_COUNT` sets the number of inputs (20,000 by
/// default); `HearthBenchmarks rules-fuzz` runs the same generator in a release build.
@Suite struct FuzzTests {
    static var count: Int {
        ProcessInfo.processInfo.environment["HEARTH_RULES_FUZZ_COUNT"].flatMap(Int.init) ?? 20_000
    }

    static let projectRules = try! String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("rules/firestore.rules"), encoding: .utf8)

    @Test func randomInputsNeverCrashOrHang() {
        var fuzzer = RulesFuzzer(seed: 0x5EED, seedRulesets: [FuzzTests.projectRules])
        let total = FuzzTests.count
        let report = fuzzer.run(count: total)
        #expect(report.inputs == total)
        #expect(report.evaluatedRulesets > total / 4)
        #expect(report.decisions == report.evaluatedRulesets * 5)
        #expect(report.slowestDecision < .seconds(2))
    }

    @Test func sameSeedSameInputs() {
        var first = RulesFuzzer(seed: 7)
        var second = RulesFuzzer(seed: 7)
        let one = first.run(count: 200)
        let two = second.run(count: 200)
        #expect(one.evaluatedRulesets == two.evaluatedRulesets)
        #expect(first.ruleset() == second.ruleset())
    }

    @Test func deepAndLongInputsAreBounded() throws {
        let deepParens = String(repeating: "(", count: 100_000) + "true" + String(repeating: ")", count: 100_000)
        let deepNot = String(repeating: "!", count: 100_000) + "true"
        let longChain = Array(repeating: "true", count: 50_000).joined(separator: " && ")
        let longMembers = "request" + String(repeating: ".a", count: 50_000)
        let deepLists = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        let deepTernary = Array(repeating: "true ? 1 :", count: 20_000).joined(separator: " ") + " 2"
        for condition in [deepParens, deepNot, longChain, longMembers, deepLists, deepTernary] {
            let diagnostics = Ruleset.check(source: Fixture.rules("    match /a/{b} { allow read: if \(condition); }"))
            #expect(diagnostics.contains { $0.message == "Expression is too complex to evaluate safely." })
        }
        let deepMatches = String(repeating: "match /a/{b} { ", count: 5000) + "allow read;" + String(repeating: " }", count: 5000)
        _ = Ruleset.check(source: Fixture.rules(deepMatches))
    }

    @Test func exponentialWorkIsCutByTheExpressionLimit() throws {
        var functions = "    function f0(x) { return x == 1 || x == 2; }\n"
        for index in 1...15 { functions += "    function f\(index)(x) { return f\(index - 1)(x) || f\(index - 1)(x); }\n" }
        let ruleset = try Fixture.ruleset(Fixture.rules(functions + "    match /a/{b} { allow get: if f15(3); }"))
        let start = ContinuousClock.now
        let decision = ruleset.evaluate(Fixture.request(.get, "a/x"))
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(decision.message.contains("maximum of 1000 expressions"))
        // Values cannot grow without bound either.
        var doubling = "    function d0(s) { return s + s; }\n"
        for index in 1...19 { doubling += "    function d\(index)(s) { return d\(index - 1)(d\(index - 1)(s)); }\n" }
        let growth = try Fixture.ruleset(Fixture.rules(doubling + "    match /a/{b} { allow get: if d19('abcdefgh').size() > 0; }"))
        #expect(!growth.evaluate(Fixture.request(.get, "a/x")).allowed)
    }
}
