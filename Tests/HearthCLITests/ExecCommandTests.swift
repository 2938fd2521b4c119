import Foundation
import Testing

/// `hearth exec` runs its command against a fresh emulator, beside a running `hearth start`.
@Suite struct ExecCommandTests {
    /// Prints the emulator's address and what its default database holds, then writes a document.
    private static let probe = """
        import json, os, urllib.request
        host = os.environ["FIRESTORE_EMULATOR_HOST"]
        base = f"http://{host}/v1/projects/demo-hearth/databases/(default)/documents"
        owner = {"Authorization": "Bearer owner"}
        listed = json.load(urllib.request.urlopen(
            urllib.request.Request(f"{base}:listCollectionIds", data=b"{}", headers=owner)))
        print(host, listed.get("collectionIds", []), os.listdir(os.environ["TMPDIR"]))
        body = json.dumps({"fields": {"by": {"stringValue": "exec"}}}).encode()
        urllib.request.urlopen(urllib.request.Request(f"{base}/users/fromExec", data=body, method="PATCH", headers=owner))
        """

    @Test func execIsFreshWhileStartHoldsThePortAndTheDefaultFolder() async throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run(["set", "users/alice", #"{"name": "Alice"}"#]).exitCode == 0)
        // emulator.json's default port, 8080, if it is free here; any port otherwise.
        var server = try RunningHearth(["start"], in: sandbox)
        var port = try await server.port()
        if port == nil {
            #expect(server.stderr.contains("8080"), "\(server.stderr)")
            server = try RunningHearth(["start", "--port", "0"], in: sandbox)
            port = try await server.port()
        }
        let startPort = try #require(port, "\(server.stdout) \(server.stderr)")
        let temporary = sandbox.directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)

        let result = try sandbox.run(["exec", "--", "python3", "-c", Self.probe], environment: ["TMPDIR": temporary.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let fields = result.stdout.split(separator: " ", maxSplits: 1).map(String.init)
        #expect(fields.first?.hasPrefix("127.0.0.1:") == true)
        #expect(fields.first != "127.0.0.1:\(startPort)", "a free port, not the running server's")
        #expect(fields.last?.hasPrefix("[] ['hearth-exec-") == true, "an empty database in a temporary folder: \(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the folder is deleted")

        // The running server's data is untouched: alice is there, the exec's document is not.
        let base = "http://127.0.0.1:\(startPort)/v1/projects/demo-hearth/databases/(default)/documents/users"
        let check = try sandbox.run([
            "exec", "--", "python3", "-c",
            """
            import urllib.request, urllib.error
            print(urllib.request.urlopen("\(base)/alice").status)
            try: urllib.request.urlopen("\(base)/fromExec")
            except urllib.error.HTTPError as e: print(e.code)
            """,
        ])
        #expect(check.stdout == "200\n404\n", "\(check.stderr)")
        #expect(try await server.stop(with: SIGTERM) == 0)
        #expect(try sandbox.run(["get", "users/fromExec"]).exitCode != 0, "nothing written to the default folder")
    }

    @Test func dataAndPortOptInToOthers() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["exec", "--data", "kept", "--", "python3", "-c", Self.probe],
                                     environment: ["TMPDIR": sandbox.directory.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try sandbox.run(["get", "users/fromExec", "--data", "kept"]).stdout.contains("exec"))
    }
}
