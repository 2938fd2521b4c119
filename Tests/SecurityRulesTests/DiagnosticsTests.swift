import Testing

@testable import SecurityRules

/// Syntax errors and load-time checks: a marker `/*N*/` in the source shows where each
/// diagnostic must point; messages follow Google's rules compiler.
@Suite struct DiagnosticsTests {
    @Test func fullRenderedText() {
        let source = """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /users/{userId} {
                  allow read: if foo(1);
                  allow write: if request.auth.uid == userId && x;
                }
              }
            }
            """
        let diagnostics = Ruleset.check(source: source)
        #expect(diagnostics.map(\.rendered) == [
            """
            firestore.rules:5:22: warning: Invalid function name: foo.
                  allow read: if foo(1);
                                 ^~~
            """,
            """
            firestore.rules:6:53: warning: Invalid variable name: x.
                  allow write: if request.auth.uid == userId && x;
                                                                ^
            """,
        ])
    }

    @Test func allSyntaxErrorsOfAFileAreReported() throws {
        let source = Fixture.rules("""
                match /a/{b} { allow read: if 1 +; }
                match /c/{d} { allow read: if 2 *; }
                match /e/{f} { allow read: if true; }
            """)
        do {
            _ = try Ruleset(source: source)
            Issue.record("expected errors")
        } catch {
            #expect(error.errors.map(\.message) == ["Unexpected ';'.", "Unexpected ';'."])
            #expect(error.errors.map { $0.location!.line } == [4, 5])
            #expect(error.rendered.contains("firestore.rules:4:38: error: Unexpected ';'."))
        }
    }

    @Test func syntaxErrorMarkers() {
        expectDiagnostics(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /a/{b} { allow read: /*1*/true; }
                match /c/{d} { allow read /*2*/if true; }
                match /e/{f} { allow read: if x/*3*/++; }
                match /i/{j} { allow /*5*/: if true; }
              }
            }
            """,
            [
                1: "error: Missing 'if' before conditional expression.",
                2: "error: Missing ':' before 'if' condition.",
                3: "error: Increment (++) and decrement (--) operators are not supported.",
                5: "error: Expected at least one 'operation' after 'allow'.",
            ])
    }

    @Test func unterminatedString() {
        let source = MarkedSource(Fixture.rules("    match /g/{h} { allow read: if /*1*/'abc; }"))
        let first = Ruleset.check(source: source.text).first
        #expect(first?.message == "Missing a closing '")
        #expect(first?.location?.line == source.markers[1]?.line)
        #expect(first?.location?.column == source.markers[1]?.column)
    }

    @Test func literalErrors() {
        expectDiagnostics(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /a/{b} { allow read: if /*1*/9223372036854775808 == 1; }
                match /c/{d} { allow read: if /*2*/b'\\u0041' == b'A'; }
                match /e/{f} { allow read: if 'a\\/*3*/q' == 'a'; }
                match /g/{h} { allow read: if 1 is /*4*/strin; }
              }
            }
            """,
            [
                1: "error: Invalid number literal 9223372036854775808.",
                2: "error: Invalid bytes literal b'\\u0041'.",
                3: "error: Unexpected 'q'.",
                4: "error: An unsupported type identifier was used with the 'is' operator. Received strin. Expected one of bool,bytes,constraint,duration,float,int,latlng,list,vector,set,number,map,string,timestamp,path,map_diff",
            ])
    }

    @Test func nameAndArityWarnings() {
        expectDiagnostics(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                function g(x) { return x; }
                match /a/{b} {
                  allow read: if request.foo.bar && math./*1*/foo(1) && /*2*/foo./*3*/bar();
                  allow read: if /*4*/g(1, 2) && 'a'./*5*/size(1) && math./*6*/abs(1, 2);
                  allow /*7*/frob: if true;
                }
              }
            }
            """,
            [
                1: "warning: Invalid function name: math.foo.",
                2: "warning: Invalid variable name: foo.",
                3: "warning: Invalid function name: bar.",
                4: "warning: Incorrect number of arguments supplied to function: g.",
                5: "warning: Incorrect number of arguments supplied to function: size.",
                6: "warning: Incorrect number of arguments supplied to function: math.abs.",
                7: "warning: Invalid method name: frob.",
            ])
    }

    @Test func functionChecks() {
        expectDiagnostics(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                function f(a, /*1*/a) { return a; }
                function g(/*2*/x) { let /*3*/y = 1; let /*4*/y = 2; return true; }
                function h(z) { return z; }
                function /*5*/h(z) { return z; }
                function /*6*/r(z) { return r(z); }
                function /*7*/c1(z) { return c2(z); }
                function c2(z) { return c1(z); }
                function /*8*/many(a, b, c, d, e, f, g, h) { return a && b && c && d && e && f && g && h; }
                match /a/{b} { allow read: if f(1, 1) && g(1) && h(1) && r(1) && c1(1) && many(1,2,3,4,5,6,7,8); }
              }
            }
            """,
            [
                1: "error: Variable a is already defined.",
                2: "warning: Unused variable: x.",
                3: "warning: Unused variable: y.",
                4: "error: The identifier [y] is already bound in the current scope.",
                5: "error: Function h is already defined.",
                6: "error: Recursive call is not allowed.",
                7: "error: Detected a call cycle between [c1,c2] functions.",
                8: "error: Maximum allowed function arguments of 7 for function many is reached.",
            ])
    }

    @Test func letLimits() {
        let lets = (0..<12).map { "let v\($0) = \($0);" }.joined(separator: " ")
        let used = (0..<12).map { "v\($0)" }.joined(separator: " + ")
        expectDiagnostics(
            Fixture.rules("    function f() { \(lets) return /*1*/\(used) > 0; }\n    match /a/{b} { allow read: if f(); }"),
            [1: "error: Maximum allowed variable count of 10 for a given function has been reached."])
        let eleven = (0..<11).map { "let v\($0) = \($0);" }.joined(separator: " ")
        let usedEleven = (0..<11).map { "v\($0)" }.joined(separator: " + ")
        #expect(
            Ruleset.check(source: Fixture.rules("    function f() { \(eleven) return \(usedEleven) > 0; }\n    match /a/{b} { allow read: if f(); }"))
                .isEmpty)
        expectDiagnostics(
            Fixture.rules("    function f(x) { /*1*/let y = x; return y; }\n    match /a/{b} { allow read: if f(1); }", version: "1"),
            [1: "error: Let bindings are not allowed in rules_version=\"1\";"])
    }

    @Test func callDepthLimit() {
        var functions = "    function f0(x) { return x; }\n"
        for index in 1...21 { functions += "    function f\(index)(x) { return f\(index - 1)(x); }\n" }
        let source = Fixture.rules(functions + "    match /a/{b} { allow read: if f21(true); }")
        let errors = Ruleset.check(source: source).filter { $0.severity == .error }
        let stack = (1...21).reversed().map { "f\($0)" }.joined(separator: "->")
        #expect(errors.map(\.message) == ["Maximum allowed call depth of 20 is reached for [\(stack)] call stack."])
        #expect(errors.first?.location?.line == 4)
        let shallow = Fixture.rules(functions + "    match /a/{b} { allow read: if f20(true); }")
            .replacingOccurrences(of: "    function f21(x) { return f20(x); }\n", with: "")
        #expect(Ruleset.check(source: shallow).filter { $0.severity == .error }.isEmpty)
    }

    @Test func expressionDepthLimit() {
        let deep = String(repeating: "(", count: 99) + "true" + String(repeating: ")", count: 99)
        let errors = Ruleset.check(source: Fixture.rules("    match /a/{b} { allow read: if \(deep); }"))
            .filter { $0.severity == .error }
        #expect(errors.map(\.message) == ["Expression is too complex to evaluate safely."])
        #expect(errors.first?.location?.column == 35 + 99)
        let fine = String(repeating: "(", count: 98) + "true" + String(repeating: ")", count: 98)
        #expect(Ruleset.check(source: Fixture.rules("    match /a/{b} { allow read: if \(fine); }")).isEmpty)
        let chain = (0..<100).map { _ in "true" }.joined(separator: " && ")
        let chainErrors = Ruleset.check(source: Fixture.rules("    match /a/{b} { allow read: if \(chain); }"))
        #expect(chainErrors.map { $0.location!.column } == [35, 43])
    }

    @Test func matchPathChecks() {
        expectDiagnostics(
            """
            service cloud.firestore {
              match /databases/{database}/documents {
                match /a/*1*//{b=**}/c/{d} { allow read; }
                match /e/{f}/{/*2*/f} { allow read; }
              }
            }
            """,
            [
                1: "error: Invalid glob match expression. Glob matches are permitted as the last segment in a match declaration path.",
                2: "error: Variable f already exists in the PathTemplate.",
            ])
    }

    @Test func versionAndServiceChecks() {
        let v1 = Ruleset.check(source: "service cloud.firestore { match /a/{b} { allow read; } }")
        #expect(v1.map(\.rendered) == [
            "firestore.rules: warning: Ruleset uses old version (version [1]). Please update to the latest version (version [2])."
        ])
        let v3 = Ruleset.check(source: "rules_version = '3';\nservice cloud.firestore { match /a/{b} { allow read; } }")
        #expect(v3.map(\.message) == ["Unsupported rules version 3."])
        let empty = Ruleset.check(source: "  \n")
        #expect(empty.map(\.message) == ["Rules content empty. Compilation aborted."])
        let emptyService = Ruleset.check(source: "rules_version = '2';\nservice cloud.firestore { }")
        #expect(emptyService.map(\.message) == ["The 'service' body must contain at least one declaration."])
        let twice = Ruleset.check(
            source: "rules_version = '2';\nservice cloud.firestore { match /a/{b} { allow read; } }\nservice cloud.firestore { match /a/{b} { allow read; } }")
        #expect(twice.map(\.message) == ["Duplicate service name declaration."])
    }

    @Test func regexLiteralsAreChecked() {
        expectDiagnostics(
            Fixture.rules("    match /a/{b} { allow read: if 'abc'.matches(/*1*/'['); }"),
            [1: "error: Invalid regular expression pattern. Pattern: [."])
    }

    @Test func invalidTypeOfLiteralCondition() {
        expectDiagnostics(
            Fixture.rules("    match /a/{b} { allow read: if /*1*/1; }"),
            [1: "warning: Invalid type. Received one of [int]. Expected one of [bool]."])
    }

    @Test func compilationErrorCarriesAllDiagnostics() {
        do {
            _ = try Ruleset(source: Fixture.rules("    match /a/{b} { allow read: if foo(); allow read: if 1 +; }"))
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.count == 1)
            #expect(error.errors.count == 1)
        }
    }
}
