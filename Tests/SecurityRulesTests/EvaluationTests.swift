import DocumentModel
import Testing

@testable import SecurityRules

/// Functions, `let`, document reads and their limits, the two evaluation phases and the
/// denial messages, as Google's emulator reports them.
@Suite struct EvaluationTests {
    func create(_ body: String, data: MapValue = ["a": 1], documents: [Document] = []) throws -> RulesDecision {
        try Fixture.decide(Fixture.rules(body), Fixture.request(.create, "t/x", newData: data), documents: documents)
    }

    @Test func letsAndArgumentsAreLazy() throws {
        let cases: [(String, String, Bool)] = [
            ("function f(x) { let y = request.resource.data.nope; return true; }", "f(1)", true),
            ("function f(x) { let y = request.resource.data.nope; return x == 1 || y; }", "f(1)", true),
            ("function f(x) { let y = request.resource.data.nope; return x == 2 && y; }", "f(1)", false),
            ("function f(x) { let y = x + 1; let z = y + 1; return z == 3; }", "f(1)", true),
            ("function f(x) { return x; }", "f(request.resource.data.nope) || true", true),
            ("function f(x) { return true; }", "f(request.resource.data.nope)", true),
            ("function f(x, y) { return x || y; }", "f(true, request.resource.data.nope)", true),
        ]
        for (function, condition, expected) in cases {
            let body = "    \(function)\n    match /t/{id} { allow create: if \(condition); }"
            #expect(try create(body).allowed == expected, "\(function) / \(condition)")
        }
    }

    @Test func functionsSeeTheirScopesPathVariables() throws {
        let body = """
                match /t/{id} {
                  function isX() { return id == 'x'; }
                  allow create: if isX();
                }
                function outside() { return id == 'x'; }
                match /u/{id} { allow create: if outside(); }
            """
        #expect(try create(body).allowed)
        let decision = try Fixture.decide(Fixture.rules(body), Fixture.request(.create, "u/x", newData: [:]))
        #expect(decision.message == "\nNull value error. for 'create' @ L9, Null value error. for 'create' @ L9")
    }

    @Test func expressionLimitIsSharedByTheRequest() throws {
        let big = "[" + Array(repeating: "1", count: 596).joined(separator: ",") + "]"
        let body = "    match /t/{id} {\n      allow create: if \(big).size() < 0;\n      allow create: if \(big).size() > 0;\n    }"
        let decision = try create(body)
        #expect(!decision.allowed)
        #expect(
            decision.message
                == "\nfalse for 'create' @ L5, Unable to evaluate the expression as the maximum of 1000 expressions to evaluate has been reached. for 'create' @ L6"
        )
        var functions = "    function f0(x) { return x == 1; }\n"
        for index in 1...8 { functions += "    function f\(index)(x) { return f\(index - 1)(x) && f\(index - 1)(x); }\n" }
        #expect(try create(functions + "    match /t/{id} { allow create: if f6(1); }").allowed)
        #expect(try !create(functions + "    match /t/{id} { allow create: if f8(1); }").allowed)
    }

    @Test func denialMessagesListBothPhases() throws {
        let body = """
                match /t/{id} {
                  allow create: if request.resource.data.a == 2;
                  allow create: if request.resource.data.b == 2;
                  allow write: if false;
                }
            """
        let decision = try create(body)
        let once = "false for 'create' @ L5, Property b is undefined on object. for 'create' @ L6, false for 'create' @ L7"
        #expect(decision.message == "\n" + once + ", " + once)
        let clean = try create(body, data: ["a": 1, "b": 1])
        #expect(clean.message == "\nfalse for 'create' @ L5, false for 'create' @ L6, false for 'create' @ L7")
    }

    @Test func firstPhaseDoesNotReadDocuments() throws {
        let body = """
                match /t/{id} {
                  allow create: if resource == null && request.resource.data.a == 2;
                  allow create: if resource.data.a == 2;
                }
            """
        let decision = try create(body)
        #expect(
            decision.message
                == "\nfalse for 'create' @ L5, evaluation error at L6:24 for 'create' @ L6, false for 'create' @ L5, Null value error. for 'create' @ L6"
        )
        let getBody = "    match /u/{id} { allow read: if resource.data.x == 1; }"
        let missing = try Fixture.decide(Fixture.rules(getBody), Fixture.request(.get, "u/x"))
        #expect(missing.message == "\nevaluation error at L4:36 for 'get' @ L4, Null value error. for 'get' @ L4")
        let present = try Fixture.decide(Fixture.rules(getBody), Fixture.request(.get, "u/y", resource: ["x": 1]))
        #expect(present.allowed)
    }

    @Test func documentReads() throws {
        let other = Fixture.document("w/y", ["z": 1])
        let body = """
                match /t/{id} {
                  allow create: if get(/databases/$(database)/documents/w/y).data.z == 1;
                }
                match /v/{id} {
                  allow create: if exists(/databases/$(database)/documents/w/$(id)) && request.auth.uid == 'q';
                  allow create: if getAfter(/databases/$(database)/documents/w/$(id)).data.z == 1;
                }
            """
        #expect(try create(body, documents: [other]).allowed)
        let missing = try Fixture.decide(
            Fixture.rules(body), Fixture.request(.create, "v/n", newData: [:]), documents: [other])
        #expect(
            missing.message
                == "\nfalse for 'create' @ L8, evaluation error at L9:24 for 'create' @ L9, false for 'create' @ L8, Service call error. Function: [getAfter], Argument: [path_value {\n  segments {\n    simple: \"databases\"\n  }\n  segments {\n    simple: \"(default)\"\n  }\n  segments {\n    simple: \"documents\"\n  }\n  segments {\n    simple: \"w\"\n  }\n  segments {\n    simple: \"n\"\n  }\n}\n]. for 'create' @ L9"
        )
    }

    @Test func accessLimits() throws {
        let documents = (0..<25).map { Fixture.document("d/\($0)", ["v": .integer(Int64($0))]) }
            + [Fixture.document("t/x", [:])]
        func exists(_ count: Int, distinct: Bool = true) -> String {
            (0..<count).map { "exists(/databases/$(database)/documents/d/\(distinct ? $0 : 1))" }.joined(separator: " && ")
        }
        func get(_ count: Int, scope: RulesRequest.AccessScope = .singleDocument) throws -> Bool {
            var request = Fixture.request(.get, "t/x")
            request.accessScope = scope
            return try Fixture.decide(
                Fixture.rules("    match /t/{id} { allow get: if \(exists(count)); }"), request, documents: documents
            ).allowed
        }
        #expect(try get(10))
        #expect(try !get(11))
        #expect(try get(20, scope: .multipleDocuments))
        #expect(try !get(21, scope: .multipleDocuments))
        let same = Fixture.rules("    match /t/{id} { allow get: if \(exists(11, distinct: false)); }")
        #expect(try Fixture.decide(same, Fixture.request(.get, "t/x"), documents: documents).allowed)
        let own = Fixture.rules(
            "    match /t/{id} { allow get: if exists(/databases/$(database)/documents/t/x) && \(exists(10)); }")
        #expect(try Fixture.decide(own, Fixture.request(.get, "t/x"), documents: documents).allowed)
        let mixed = (0..<10).map { "get(/databases/$(database)/documents/d/\($0)).data.v == \($0)" }.joined(separator: " && ")
        let both = Fixture.rules("    match /t/{id} { allow get: if \(exists(10)) && \(mixed); }")
        #expect(try !Fixture.decide(both, Fixture.request(.get, "t/x"), documents: documents).allowed)
    }

    @Test func batchesShareTheirLimit() throws {
        let documents = (0..<25).map { Fixture.document("d/\($0)", [:]) }
        let ruleset = try Fixture.ruleset(
            Fixture.rules("    match /t/{id} { allow create: if exists(/databases/$(database)/documents/d/$(request.resource.data.n)); }"))
        let tracker = RulesAccessTracker()
        let lookup = InMemoryDocuments(before: documents)
        for index in 0..<20 {
            var request = Fixture.request(.create, "t/\(index)", newData: ["n": .integer(Int64(index))])
            request.accessScope = .multipleDocuments
            #expect(ruleset.evaluate(request, lookup: lookup, accessTracker: tracker).allowed)
        }
        var request = Fixture.request(.create, "t/20", newData: ["n": 20])
        request.accessScope = .multipleDocuments
        #expect(!ruleset.evaluate(request, lookup: lookup, accessTracker: tracker).allowed)
        #expect(tracker.count == 20)
    }

    @Test func customClaimsAndAuth() throws {
        let body = "    match /t/{id} { allow create: if request.auth.token.admin == true && request.auth.token.email.matches('.*@example[.]com'); }"
        var request = Fixture.request(.create, "t/x", claims: ["admin": true, "email": "a@example.com"], newData: [:])
        #expect(try Fixture.decide(Fixture.rules(body), request).allowed)
        request = Fixture.request(.create, "t/x", claims: ["email": "a@example.com"], newData: [:])
        let denied = try Fixture.decide(Fixture.rules(body), request)
        #expect(denied.message.contains("Property admin is undefined on object."))
        let anonymous = try Fixture.decide(
            Fixture.rules("    match /t/{id} { allow create: if request.auth.uid == 'x'; }"),
            Fixture.request(.create, "t/x", uid: nil, newData: [:]))
        #expect(anonymous.message == "\nNull value error. for 'create' @ L4, Null value error. for 'create' @ L4")
    }

    @Test func updatesWithAffectedKeys() throws {
        let body = """
                match /t/{id} {
                  allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['name', 'updatedAt'])
                                && request.resource.data.updatedAt == request.time;
                }
            """
        let time = Value.timestamp(Fixture.time)
        let old: MapValue = ["name": "a", "createdAt": time, "updatedAt": 1]
        var ok = Fixture.request(.update, "t/x", resource: old, newData: ["name": "b", "createdAt": time, "updatedAt": time])
        #expect(try Fixture.decide(Fixture.rules(body), ok).allowed)
        ok = Fixture.request(.update, "t/x", resource: old, newData: ["name": "b", "createdAt": 5, "updatedAt": time])
        #expect(try !Fixture.decide(Fixture.rules(body), ok).allowed)
    }
}
