import Foundation
import Testing

/// `hearth start` and `hearth exec` end to end, on free ports.
@Suite struct ServerCommandTests {
    @Test func execRunsTheCommandAgainstTheEmulatorAndReturnsItsStatus() throws {
        let sandbox = try Sandbox()
        let script = """
            import os, sys, urllib.request
            host = os.environ["FIRESTORE_EMULATOR_HOST"]
            print(host, os.environ["GCLOUD_PROJECT"], urllib.request.urlopen(f"http://{host}/").read().decode().strip())
            sys.exit(3)
            """
        let result = try sandbox.run(["exec", "--port", "0", "--log-level", "info", "--", "python3", "-c", script])
        #expect(result.exitCode == 3, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("127.0.0.1:"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix(" demo-hearth Ok\n"), "\(result.stdout)")
        #expect(result.stderr.contains("HTTP GET / unauthenticated allowed OK"), "\(result.stderr)")
    }

    @Test func execNeedsACommand() throws {
        let result = try Sandbox().run(["exec", "--port", "0"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("Give the command to run after --"))
    }

    @Test func startServesUntilSIGTERMAndRefusesABusyPortOrFolder() async throws {
        let sandbox = try Sandbox()
        let server = try RunningHearth(["start", "--port", "0"], in: sandbox)
        let port = try #require(try await server.port(), "no ready line in \(server.stdout) \(server.stderr)")
        #expect(server.stdout.contains("\nHearth ready at 127.0.0.1:\(port) "), "\(server.stdout)")
        #expect(server.stdout.contains("\nConsole at http://127.0.0.1:\(port)/ui/\n"), "\(server.stdout)")

        let otherFolder = try sandbox.run(["start", "--port", String(port), "--data", "elsewhere"])
        #expect(otherFolder.exitCode == 1)
        #expect(otherFolder.stderr.contains("Error: Port \(port) on 127.0.0.1 is in use"), "\(otherFolder.stderr)")

        let sameFolder = try sandbox.run(["exec", "--data", ".hearth/data", "--", "true"])
        #expect(sameFolder.exitCode == 1)
        #expect(sameFolder.stderr.contains("Error: data folder '.hearth/data' is in use by another process"))

        #expect(try await server.stop(with: SIGTERM) == 0)
        #expect(server.stdout.hasSuffix("Hearth stopping (SIGTERM): finishing open requests\nHearth stopped\n"))
        #expect(try sandbox.run(["info"]).exitCode == 0, "the data folder is free again")
    }

    @Test func startLogsOneLinePerRequest() async throws {
        let sandbox = try Sandbox()
        let server = try RunningHearth(["start", "--port", "0"], in: sandbox)
        let port = try #require(try await server.port())
        let url = URL(string: "http://127.0.0.1:\(port)/v1/projects/demo-hearth/databases/(default)/documents/c/d")!
        let request = try sandbox.run([
            "exec", "--port", "0", "--data", "other", "--",
            "python3", "-c", "import urllib.request as u\ntry: u.urlopen('\(url)')\nexcept Exception as e: print(e)",
        ])
        #expect(request.stdout.contains("404"))
        #expect(try await server.waitForOutput(
            containing: "HTTP GET /v1/projects/demo-hearth/databases/(default)/documents/c/d unauthenticated allowed NOT_FOUND"))
        #expect(try await server.stop(with: SIGINT) == 0)
    }
}
