import Foundation
import Testing

/// `hearth rules check FILE`, run as a subprocess: every diagnostic rendered with its line and
/// caret, an OK line on success, and a non-zero exit on any error.
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
                warned.rules:5:22: warning: Invalid function name: isSignedIn.
                      allow read: if isSignedIn();
                                     ^~~~~~~~~~

                """)
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
        #expect(result.stderr.contains("Usage: hearth rules check <file>"))
    }
}
