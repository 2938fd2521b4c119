import DocumentModel
import Testing

@testable import SecurityRules

/// The evaluator's shortcuts (fused nodes without coverage, maps read in place, path variables
/// read from the request, the argument stack) decide exactly as the plain nodes do: with
/// coverage on, every expression has its own node, so the two must agree on every verdict and
/// every denial message.
@Suite struct FusedNodeTests {
    static let functions = """
            function member(d) { return d.a == 1; }
            function keys(d) { return d.keys().hasAll(['a', 'b']) && d.keys().hasOnly(['a', 'b', 's']); }
            function bound(d) { let x = d.a; let m = d; return x == 1 && m.b == 2; }
            function text(d) { return d.s.matches('h[a-z]+') && d.s.size() == 5; }
        """

    static let conditions = [
        "member(request.resource.data)", "member(1)", "member(null)", "member(request.resource.data.s)",
        "keys(request.resource.data)", "keys(['a', 'b'])", "keys(1)", "bound(request.resource.data)",
        "text(request.resource.data)", "request.resource.data.a == 1", "request.resource.data.nope == 1",
        "request.resource.data.s.matches('hel+o')", "request.resource.data.a.matches('1')",
        "request.resource.data.a.x == 1", "id == 'x' && request.resource.data.b == 2", "rest == 'x'",
    ]

    static let requests = [
        Fixture.request(.create, "t/x", newData: ["a": 1, "b": 2, "s": "hello"]),
        Fixture.request(.create, "t/x", newData: ["b": 2, "s": "hx"]),
        Fixture.request(.create, "t/x", newData: nil),
        Fixture.request(.delete, "t/x", resource: ["a": 1]),
        Fixture.request(.get, "t/x"),
    ]

    func decisions(coverage: Bool) throws -> [RulesDecision] {
        var decisions: [RulesDecision] = []
        for condition in FusedNodeTests.conditions {
            let source = Fixture.rules(
                FusedNodeTests.functions
                    + "\n    match /t/{id} { allow read, write: if \(condition); }"
                    + "\n    match /t/{rest=**} { allow read, write: if \(condition); }")
            let ruleset = try Fixture.ruleset(source, coverage: coverage)
            for request in FusedNodeTests.requests {
                decisions.append(ruleset.evaluate(request))
            }
        }
        return decisions
    }

    @Test func shortcutsDecideAsThePlainNodes() throws {
        let fast = try decisions(coverage: false)
        let plain = try decisions(coverage: true)
        #expect(fast.count == FusedNodeTests.conditions.count * FusedNodeTests.requests.count)
        for (index, (fast, plain)) in zip(fast, plain).enumerated() {
            let condition = FusedNodeTests.conditions[index / FusedNodeTests.requests.count]
            #expect(fast == plain, "\(condition), request \(index % FusedNodeTests.requests.count)")
        }
        // The cases are not all alike: some allow, some deny with messages of each kind.
        #expect(fast[0].allowed)
        #expect(!fast[5].allowed)
        let messages = fast.map(\.message).joined(separator: "|")
        for message in ["Property nope is undefined on object.", "Null value error.", "Type error.", "Function not found error"] {
            #expect(messages.contains(message), "\(message)")
        }
    }

    /// Forcing an argument that calls a function that calls a function, each binding seven
    /// arguments, grows the argument stack while a slot is being forced.
    @Test func nestedCallsGrowTheArgumentStack() throws {
        let body = """
                function h(a, b, c, d, e, f, g) { return a + b + c + d + e + f + g; }
                match /t/{id} {
                  allow create: if h(h(h(1, 1, 1, 1, 1, 1, 1), 1, 1, 1, 1, 1, 1), 1, 1, 1, 1, 1, 1) == 19;
                }
            """
        for coverage in [false, true] {
            let ruleset = try Fixture.ruleset(Fixture.rules(body), coverage: coverage)
            #expect(ruleset.evaluate(Fixture.request(.create, "t/x", newData: [:])).allowed)
        }
    }
}
