import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `hearth start` with a security rules file: enforced for every project, a file with errors
/// refused at start, and the file reloaded while running (keeping the last good rules on errors).
@Suite struct RulesStartTests {
    /// `users/{uid}` readable by its own user only; `open/**` readable by all.
    private static let ownerOnly = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /users/{uid} {
              allow read: if request.auth != null && request.auth.uid == uid;
            }
          }
        }

        """

    private static let broken = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /users/{uid} {
              allow read: if foo(;
            }
          }
        }

        """

    private static let everyoneReads = ownerOnly.replacingOccurrences(
        of: "request.auth != null && request.auth.uid == uid", with: "true")

    /// An unsigned JWT for `uid`.
    private static func token(_ uid: String) -> String {
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        return part(#"{"alg":"none"}"#) + "." + part(#"{"sub":"\#(uid)"}"#) + "."
    }

    /// The HTTP status of alice reading `users/bob` in `project`.
    private static func aliceReadsBob(port: Int, project: String = "demo-hearth") async throws -> Int {
        let url = URL(string: "http://127.0.0.1:\(port)/v1/projects/\(project)/databases/(default)/documents/users/bob")!
        var request = URLRequest(url: url)
        request.setValue("Bearer \(token("alice"))", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test func startEnforcesTheRulesFileAndReloadsItWhenItChanges() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.ownerOnly, to: "firestore.rules")
        let server = try RunningHearth(["start", "--port", "0", "--rules", "firestore.rules"], in: sandbox)
        let port = try #require(try await server.port(), "no ready line in \(server.stdout) \(server.stderr)")
        #expect(server.stdout.contains("Security rules from 'firestore.rules' apply to every project"))

        #expect(try await Self.aliceReadsBob(port: port) == 403)
        #expect(try await Self.aliceReadsBob(port: port, project: "any-other-project") == 403)
        #expect(try await server.waitForOutput(containing: "alice denied PERMISSION_DENIED"), "\(server.stdout)")

        try sandbox.write(Self.broken, to: "firestore.rules")
        #expect(try await server.waitForOutput(containing: "keeping the last good rules"), "\(server.stdout)")
        #expect(server.stdout.contains("firestore.rules:5:26: error: Unexpected ';'."), "\(server.stdout)")
        #expect(try await Self.aliceReadsBob(port: port) == 403, "the last good rules still apply")

        try sandbox.write(Self.everyoneReads, to: "firestore.rules")
        #expect(try await server.waitForOutput(containing: "Security rules reloaded from 'firestore.rules'"))
        #expect(try await Self.aliceReadsBob(port: port) == 404, "allowed now, and missing")
        #expect(try await server.waitForOutput(containing: "alice allowed NOT_FOUND"), "\(server.stdout)")
        #expect(try await server.stop(with: SIGTERM) == 0)
    }

    @Test func startRefusesARulesFileWithErrors() throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.broken, to: "firestore.rules")
        let result = try sandbox.run(["start", "--port", "0", "--rules", "firestore.rules"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("the rules file 'firestore.rules' has errors; Hearth did not start"), "\(result.stderr)")
        #expect(result.stderr.contains("firestore.rules:5:26: error: Unexpected ';'."), "\(result.stderr)")
        #expect(!result.stdout.contains("Hearth ready"))
    }

    @Test func startWithoutARulesFileSaysEverythingIsAllowedAndLoadsTheFileWhenItAppears() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(#"{"rules": "my.rules"}"#, to: "emulator.json")
        let server = try RunningHearth(["start", "--port", "0"], in: sandbox)
        let port = try #require(try await server.port(), "no ready line in \(server.stdout) \(server.stderr)")
        #expect(server.stdout.contains("WARNING: no security rules file at 'my.rules': every request is allowed"))
        #expect(try await Self.aliceReadsBob(port: port) == 404)

        try sandbox.write(Self.ownerOnly, to: "my.rules")
        #expect(try await server.waitForOutput(containing: "Security rules reloaded from 'my.rules'"))
        #expect(try await Self.aliceReadsBob(port: port) == 403)
        #expect(try await server.stop(with: SIGINT) == 0)
    }
}
