import Foundation
import Testing

/// `hearth rules check [--strict] FILE`, run as a subprocess: every diagnostic rendered with its
/// line and caret, an OK line on success, and exit 1 on any error, or with `--strict` on any
/// warning.
@Suite struct RulesCheckCommandTests {
    static func rules(_ body: String) -> String {
        """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /users/{userId} {
        \(body)
            }
          }
        }

        """
    }

    @Test func aValidFileIsOK() throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.rules("      allow read: if request.auth != null;"), to: "firestore.rules")
        let result = try sandbox.run(["rules", "check", "firestore.rules"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "firestore.rules: OK\n")
        #expect(result.stderr == "")
    }

    @Test func theProjectRulesAreOK() throws {
        let projectRules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("rules/firestore.rules")
        let sandbox = try Sandbox()
        try sandbox.write(try String(contentsOf: projectRules, encoding: .utf8), to: "project.rules")
        let result = try sandbox.run(["rules", "check", "project.rules"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "project.rules: OK\n")
    }

    @Test func everyErrorIsPrintedWithItsLineAndCaret() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            Self.rules(
                """
                      allow read: if 1 +;
                      allow write: if request.auth.uid == userId &&;
                """), to: "broken.rules")
        let result = try sandbox.run(["rules", "check", "broken.rules"])
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                broken.rules:5:25: error: Unexpected ';'.
                      allow read: if 1 +;
                                        ^
                broken.rules:6:52: error: Unexpected ';'.
                      allow write: if request.auth.uid == userId &&;
                                                                   ^
                broken.rules: 2 errors

                """)
    }

    @Test func warningsArePrintedWithoutFailing() throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.rules("      allow read: if isSignedIn();"), to: "warned.rules")
        let result = try sandbox.run(["rules", "check", "warned.rules"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "warned.rules: OK, 1 warning\n")
        #expect(
            result.stderr == """
                warned.rules:5:22: warning: unknown function 'isSignedIn'
                      allow read: if isSignedIn();
                                     ^~~~~~~~~~

                """)
    }

    /// The file of issue 18: both statements load but can never allow anything.
    static let mistyped = rules(
        """
              allow raed: if true;
              allow read: if fals;
        """)

    static let mistypedDiagnostics = """
        typo.rules:5:13: warning: unknown method 'raed' (did you mean 'read'?)
              allow raed: if true;
                    ^~~~
        typo.rules:6:22: warning: undefined name 'fals' (did you mean 'false'?)
              allow read: if fals;
                             ^~~~

        """

    @Test func mistypedMethodsAndNamesWarnWithASuggestion() throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.mistyped, to: "typo.rules")
        let result = try sandbox.run(["rules", "check", "typo.rules"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "typo.rules: OK, 2 warnings\n")
        #expect(result.stderr == Self.mistypedDiagnostics)
    }

    @Test func strictFailsOnWarnings() throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.mistyped, to: "typo.rules")
        let result = try sandbox.run(["rules", "check", "--strict", "typo.rules"])
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == Self.mistypedDiagnostics + "typo.rules: 2 warnings, failing under --strict\n")
    }

    @Test func strictPassesACleanFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.rules("      allow read: if request.auth.uid == userId;"), to: "clean.rules")
        let result = try sandbox.run(["rules", "check", "clean.rules", "--strict"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "clean.rules: OK\n")
        #expect(result.stderr == "")
    }

    @Test func theSummaryCountsErrorsAndWarnings() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            Self.rules(
                """
                      function f(x) { return x; }
                      function f(y) { return y; }
                      allow read: if f(usrId);
                """), to: "both.rules")
        let result = try sandbox.run(["rules", "check", "both.rules"])
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("both.rules:6:16: error: Function f is already defined."))
        #expect(result.stderr.contains("both.rules:7:24: warning: undefined name 'usrId' (did you mean 'userId'?)"))
        #expect(result.stderr.hasSuffix("\nboth.rules: 1 error, 1 warning\n"))
    }

    @Test func aMissingFileIsAnError() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["rules", "check", "missing.rules"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasPrefix("Error: Cannot read missing.rules: "))
    }

    @Test func theFileArgumentIsRequired() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["rules", "check"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: Missing expected argument '<file>'\n"))
        #expect(result.stderr.contains("Usage: hearth rules check [--strict] <file>"))
    }
}
