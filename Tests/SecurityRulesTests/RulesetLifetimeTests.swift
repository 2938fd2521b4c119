import Testing

@testable import SecurityRules

/// A compiled ruleset and its functions are freed when the ruleset is dropped, also when a
/// function calls itself (a cycle of references through its calls) or another that calls it.
@Suite struct RulesetLifetimeTests {
    /// The user function called by the first condition of the first match block with one.
    static func calledFunction(_ matches: [CompiledMatch]) -> CompiledFunction? {
        for match in matches {
            if let condition = match.allows.first?.condition { return (condition as? UserCallNode)?.function.object }
            if let found = calledFunction(match.children) { return found }
        }
        return nil
    }

    @Test(arguments: [
        "function f(x) { return f(x); }",
        "function f(x) { return g(x); } function g(x) { return f(x) || x; }",
        "function f(x) { return x > 0 && f(x - 1); }",
    ])
    func aRecursiveFunctionIsFreedWithItsRuleset(functions: String) throws {
        weak var ruleset: CompiledRuleset?
        weak var function: CompiledFunction?
        do {
            let source = Fixture.rules("    \(functions)\n    allow read: if f(1);")
            let (compiled, _, sink) = Ruleset.compile(source: source, fileName: "firestore.rules")
            #expect(sink.diagnostics.contains { $0.severity == .error })
            let made = try #require(compiled)
            ruleset = made
            function = try #require(RulesetLifetimeTests.calledFunction(made.matches))
        }
        #expect(ruleset == nil)
        #expect(function == nil)
    }

    @Test func aLoadedRulesetIsFreedWithItsFunctions() throws {
        weak var loaded: Ruleset?
        weak var function: CompiledFunction?
        do {
            let source = Fixture.rules("""
                    function isOwner(uid) { return request.auth.uid == uid; }
                    function twice(uid) { return isOwner(uid) && isOwner(uid); }
                    match /users/{id} { allow read: if twice(id); }
                """)
            let ruleset = try Fixture.ruleset(source)
            #expect(ruleset.evaluate(Fixture.request(.get, "users/alice")).allowed)
            loaded = ruleset
            function = try #require(RulesetLifetimeTests.calledFunction(ruleset.compiled.matches))
        }
        #expect(loaded == nil)
        #expect(function == nil)
    }
}
