import Testing

@testable import SecurityRules

/// `RulesLinter`, what `hearth rules check` prints: a name that does not resolve (an `allow`
/// method, a variable, a function) is a warning with the likeliest fix, and a name that
/// resolves never is. Markers `/*N*/` show where each diagnostic must point.
@Suite struct LinterTests {
    static func lint(_ source: String) -> [Diagnostic] { RulesLinter().check(source: source) }

    @Test func theIssuesFileRendersWithSuggestionsAndKeepsGooglesWordingForTheServer() {
        let source = """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /a/{id} {
                  allow raed: if true;
                  allow read: if fals;
                }
              }
            }
            """
        #expect(
            RulesLinter().check(source: source, fileName: "a.rules").map(\.rendered) == [
                """
                a.rules:5:13: warning: unknown method 'raed' (did you mean 'read'?)
                      allow raed: if true;
                            ^~~~
                """,
                """
                a.rules:6:22: warning: undefined name 'fals' (did you mean 'false'?)
                      allow read: if fals;
                                     ^~~~
                """,
            ])
        #expect(RulesLinter().check(source: source).allSatisfy { $0.severity == .warning })
        // What the server reports (and Google's emulator answers) is unchanged.
        #expect(
            Ruleset.check(source: source).map(\.message) == [
                "Invalid method name: raed.", "Invalid variable name: fals.",
            ])
    }

    @Test func unknownMethods() {
        expectDiagnostics(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /a/{id} {
                  allow /*1*/raed: if true;
                  allow get, /*2*/lsit, /*3*/updat: if true;
                  allow /*4*/Write: if false;
                  allow /*5*/frob: if true;
                }
              }
            }
            """,
            [
                1: "warning: unknown method 'raed' (did you mean 'read'?)",
                2: "warning: unknown method 'lsit' (did you mean 'list'?)",
                3: "warning: unknown method 'updat' (did you mean 'update'?)",
                4: "warning: unknown method 'Write' (did you mean 'write'?)",
                5: "warning: unknown method 'frob' (the methods are read, write, get, list, create, update, delete)",
            ], check: Self.lint)
    }

    @Test func undefinedNamesSuggestWhatIsInScope() {
        expectDiagnostics(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                function owns(account) {
                  let /*12*/owner = account.owner;
                  return /*1*/requst.auth.uid == /*2*/ownr && /*3*/acount != null;
                }
                match /users/{userId} {
                  allow read: if /*4*/fals || /*5*/Null == null || /*6*/userid == 'a' || owns(/*7*/resouce.data);
                  allow write: if /*8*/databse != null && /*9*/timestmap./*11*/value(1) != null && /*10*/frob;
                }
              }
            }
            """,
            [
                1: "warning: undefined name 'requst' (did you mean 'request'?)",
                2: "warning: undefined name 'ownr' (did you mean 'owner'?)",
                3: "warning: undefined name 'acount' (did you mean 'account'?)",
                4: "warning: undefined name 'fals' (did you mean 'false'?)",
                5: "warning: undefined name 'Null' (did you mean 'null'?)",
                6: "warning: undefined name 'userid' (did you mean 'userId'?)",
                7: "warning: undefined name 'resouce' (did you mean 'resource'?)",
                8: "warning: undefined name 'databse' (did you mean 'database'?)",
                9: "warning: undefined name 'timestmap' (did you mean 'timestamp'?)",
                10: "warning: undefined name 'frob'",
                // As in Google's compiler, the method of an undefined receiver is looked up too.
                11: "warning: unknown function 'value' (did you mean 'values'?)",
                12: "warning: Unused variable: owner.",
            ], check: Self.lint)
    }

    @Test func namesOutOfTheirScopeWarn() {
        expectDiagnostics(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /a/{first} {
                  function f(p) { let q = p; return q; }
                  allow read: if f(1) && /*1*/q == 1 && /*2*/p == 1;
                }
                match /b/{second} {
                  allow read: if /*3*/first == second;
                }
              }
            }
            """,
            [
                1: "warning: undefined name 'q'",
                2: "warning: undefined name 'p'",
                3: "warning: undefined name 'first'",
            ], check: Self.lint)
    }

    @Test func unknownFunctions() {
        expectDiagnostics(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /a/{id} {
                  allow read: if /*1*/isSignedin() && math./*2*/flor(1.5) == 1 && 'a'./*3*/sise() == 1;
                  allow write: if /*4*/exist(/databases/$(database)/documents/a/$(id)) && /*5*/frobnicate();
                  function isSignedIn() { return request.auth != null; }
                }
              }
            }
            """,
            [
                1: "warning: unknown function 'isSignedin' (did you mean 'isSignedIn'?)",
                2: "warning: unknown function 'math.flor' (did you mean 'math.floor'?)",
                3: "warning: unknown function 'sise' (did you mean 'size'?)",
                4: "warning: unknown function 'exist' (did you mean 'exists'?)",
                5: "warning: unknown function 'frobnicate'",
            ], check: Self.lint)
    }

    /// Path variables of every enclosing match (globs too), function parameters and `let`s,
    /// the language's globals and functions, and functions declared later in the file.
    @Test func namesThatResolveDoNotWarn() {
        let source = """
            rules_version = '2';
            function topLevel(a) { return a != null; }
            service cloud.firestore {
              match /databases/{database}/documents {
                function signedIn() { return request.auth != null && declaredLater(request.auth.uid); }
                match /users/{userId} {
                  allow read: if signedIn() && isOwner() && topLevel(userId);
                  allow create: if request.resource.data.keys().hasOnly(['name']) && valid(request.resource.data);
                  allow update, delete: if resource.data.owner == userId && database.size() > 0;
                  function isOwner() { return request.auth.uid == userId; }
                  function valid(data) {
                    let name = data.name;
                    let size = name.size();
                    return name is string && size < 100 && size == math.abs(size);
                  }
                  match /posts/{postId}/{rest=**} {
                    allow get: if userId != postId && rest is path
                      && exists(/databases/$(database)/documents/users/$(userId))
                      && get(/databases/$(database)/documents/users/$(userId)).data.x == 1
                      && existsAfter(path('/databases/' + database + '/documents/x/' + postId))
                      && getAfter(/databases/$(database)/documents/users/$(userId)) != null;
                    allow list: if true && !false && null == null
                      && request.time < timestamp.value(0) + duration.value(1, 's')
                      && latlng.value(1, 2) is latlng && hashing.sha256('a') is bytes && debug(int('1')) == float('1')
                      && string(1) == '1' && int(1.5) == 1 && math.floor(1.5) == 1
                      && duration.time(1, 2, 3, 4) is duration && timestamp.date(2020, 1, 1) is timestamp;
                  }
                }
                function declaredLater(uid) { return uid is string; }
              }
            }
            """
        #expect(RulesLinter().check(source: source).map(\.rendered) == [])
        #expect(Ruleset.check(source: source).map(\.rendered) == [])
    }

    @Test func projectRulesHaveNoWarnings() {
        #expect(RulesLinter().check(source: ProjectRulesTests.source).map(\.rendered) == [])
    }

    @Test func otherDiagnosticsKeepGooglesMessages() {
        let source = Fixture.rules("    function f(x) { return true; }\n    match /a/{b} { allow read: if 1 +; }")
        #expect(RulesLinter().check(source: source).map(\.message) == Ruleset.check(source: source).map(\.message))
        let unused = Fixture.rules("    function f(x) { return true; }\n    match /a/{b} { allow read: if f(1); }")
        #expect(RulesLinter().check(source: unused).map(\.message) == ["Unused variable: x."])
    }

    @Test func suggestionsAreNearAndShortNamesGetNone() {
        #expect(Suggestion.closest(to: "raed", among: UnresolvedName.methods) == "read")
        #expect(Suggestion.closest(to: "USERID", among: ["database", "userId"]) == "userId")
        #expect(Suggestion.closest(to: "x", among: ["y", "b", "id"]) == nil)
        #expect(Suggestion.closest(to: "frob", among: UnresolvedName.methods) == nil)
        #expect(Suggestion.closest(to: "ab", among: ["ac", "ad"]) == "ac", "ties go to the first")
        #expect(Suggestion.distance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
        #expect(Suggestion.distance(Array("raed".unicodeScalars), Array("read".unicodeScalars)) == 1)
        #expect(Suggestion.distance(Array("".unicodeScalars), Array("abc".unicodeScalars)) == 3)
    }
}
