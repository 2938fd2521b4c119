import DocumentModel
import Testing

@testable import SecurityRules

/// Which allow statements apply to a request: wildcards in rules versions 1 and 2, nesting,
/// overlapping matches, methods.
@Suite struct MatchingTests {
    func allowed(_ match: String, _ path: String, condition: String = "true", version: String = "2") throws -> Bool {
        let source = Fixture.rules("    match \(match) {\n      allow get: if \(condition);\n    }", version: version)
        return try Fixture.decide(source, Fixture.request(.get, path)).allowed
    }

    @Test func recursiveWildcardMatchesOneOrMoreSegmentsInVersion1() throws {
        #expect(try allowed("/{d=**}", "a/b", version: "1"))
        #expect(try allowed("/a/{d=**}", "a/b", version: "1"))
        #expect(try !allowed("/a/{b}/{d=**}", "a/b", version: "1"))
        #expect(try allowed("/a/{b}/{d=**}", "a/b/c/d", version: "1"))
    }

    @Test func recursiveWildcardMatchesZeroOrMoreSegmentsInVersion2() throws {
        #expect(try allowed("/a/{b}/{d=**}", "a/b"))
        #expect(try allowed("/{p=**}/c/{d}", "a/b/c/d", condition: "p == /a/b"))
        #expect(try allowed("/{p=**}/c/{d}", "c/d/c/e", condition: "p == /c/d"))
        #expect(try allowed("/{p=**}/c/{d}", "c/d", condition: "string(p) == '/'"))
        #expect(try !allowed("/{p=**}/c/{d}", "c/d/x/y"))
        #expect(try allowed("/a/{p=**}/c/{d}", "a/b/c/d", condition: "p == /b"))
    }

    @Test func variablesAreStringsAndGlobsArePaths() throws {
        for version in ["1", "2"] {
            #expect(try allowed("/a/{d=**}", "a/b/c/d", condition: "d is path && d == /b/c/d", version: version))
            #expect(try !allowed("/a/{d=**}", "a/b/c/d", condition: "d == 'b/c/d'", version: version))
            #expect(try allowed("/a/{b}/{d=**}", "a/b/c/d", condition: "b == 'b'", version: version))
        }
        #expect(try allowed("/a/{b}", "a/x", condition: "database == '(default)'"))
    }

    @Test func nestedMatchesAndShadowing() throws {
        let source = Fixture.rules("""
                match /a/{b} {
                  match /c/{b} { allow get: if b == 'y'; }
                  match /d/{e} { allow get: if b == 'x' && e == 'z'; }
                }
            """)
        #expect(try Fixture.decide(source, Fixture.request(.get, "a/x/c/y")).allowed)
        #expect(try Fixture.decide(source, Fixture.request(.get, "a/x/d/z")).allowed)
        #expect(try !Fixture.decide(source, Fixture.request(.get, "a/x")).allowed)
    }

    @Test func globChildrenInVersion1NeverMatch() throws {
        let body = "    match /a/{b=**} { match /c/{d} { allow get; } }"
        #expect(try !Fixture.decide(Fixture.rules(body, version: "1"), Fixture.request(.get, "a/b/c/d")).allowed)
        #expect(try Fixture.decide(Fixture.rules(body), Fixture.request(.get, "a/b/c/d")).allowed)
    }

    @Test func overlappingMatchesCombineWithOr() throws {
        let source = Fixture.rules("""
                match /a/{b} { allow get: if false; }
                match /a/x { allow get: if true; }
                match /{path=**} { allow get: if false; }
            """)
        let decision = try Fixture.decide(source, Fixture.request(.get, "a/x"))
        #expect(decision.allowed)
        let denied = try Fixture.decide(source, Fixture.request(.get, "a/y"))
        #expect(!denied.allowed)
        #expect(denied.message == "\nfalse for 'get' @ L4, false for 'get' @ L6")
    }

    @Test func readAndWriteCoverTheirMethods() throws {
        let source = Fixture.rules("    match /a/{b} { allow read; allow write: if request.auth != null; }")
        for method in [RulesMethod.get, .create, .update, .delete] {
            #expect(try Fixture.decide(source, Fixture.request(method, "a/x", newData: [:])).allowed)
        }
        #expect(try Fixture.decide(source, Fixture.request(.list, "a")).allowed)
        #expect(try !Fixture.decide(source, Fixture.request(.delete, "a/x", uid: nil)).allowed)
    }

    @Test func nothingMatchingDenies() throws {
        let decision = try Fixture.decide(Fixture.rules("    match /a/{b} { allow get; }"), Fixture.request(.create, "a/x"))
        #expect(!decision.allowed)
        #expect(decision.evaluations.isEmpty)
        #expect(decision.message == "No matching allow statements")
        let list = try Fixture.decide(Fixture.rules("    match /u/alice { allow read; }"), Fixture.request(.list, "u"))
        #expect(list.message == "No matching allow statements")
    }

    @Test func collectionGroupQueriesNeedARecursiveWildcard() throws {
        let group = RulesQuery(collectionGroup: true)
        func list(_ match: String) throws -> Bool {
            let source = Fixture.rules("    match \(match) { allow list; }")
            return try Fixture.decide(source, Fixture.request(.list, "u", query: group)).allowed
        }
        #expect(try !list("/u/{id}"))
        #expect(try list("/{p=**}/u/{id}"))
        #expect(try list("/{p=**}"))
        #expect(try !list("/a/{x}/u/{id}"))
        let plain = Fixture.rules("    match /a/{x}/u/{id} { allow list; }")
        #expect(try Fixture.decide(plain, Fixture.request(.list, "a/b/u")).allowed)
    }
}
