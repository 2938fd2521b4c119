import DocumentStore
import Foundation
import Testing

/// `hearth info` and the defaults `emulator.json` supplies.
@Suite struct ConfigurationTests {
    /// The `Label: value` lines of `info` as a dictionary.
    private func info(_ result: CommandResult) -> [String: String] {
        var lines: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            lines[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return lines
    }

    @Test func infoIsTheDefaultSubcommand() throws {
        let sandbox = try Sandbox()
        let fresh = try sandbox.run([])
        #expect(fresh.exitCode == 0, "\(fresh.stderr)")
        let lines = info(fresh)
        #expect(lines["Data folder"]?.hasSuffix("/.hearth/data") == true)
        #expect(lines["Project"] == "demo-hearth")
        #expect(lines["Database"] == "(default)")
        #expect(lines["Format version"] == String(DocumentStore.formatVersion))
        #expect(lines["Last commit"] == "no commits yet")

        let set = try sandbox.run(["set", "users/alice", "{}"])
        let after = info(try sandbox.run(["info", "--database", "other"]))
        #expect(after["Last commit"] == set.stdout.trimmingCharacters(in: .newlines))
        #expect(after["Database"] == "other")
    }

    @Test func emulatorJSONSuppliesTheDataFolderAndProject() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            """
            {"projectId": "demo-configured", "dataFolder": "configured-data", "host": "0.0.0.0", "port": 9090,
             "rules": "other.rules", "logLevel": "debug", "somethingElse": [1, {"x": null}]}
            """, to: "emulator.json")
        let configured = try sandbox.run(["info"])
        #expect(configured.stderr == "emulator.json: unknown key 'somethingElse'; it is ignored\n")
        let lines = info(configured)
        #expect(lines["Project"] == "demo-configured")
        #expect(lines["Data folder"]?.hasSuffix("/configured-data") == true)

        #expect(try sandbox.run(["set", "users/alice", "{}"]).exitCode == 0)
        let get = try sandbox.run(["get", "users/alice"])
        #expect(get.stdout.contains(#""name": "projects/demo-configured/databases/(default)/documents/users/alice""#))
        #expect(
            FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("configured-data").path))

        let overridden = info(try sandbox.run(["info", "--project", "demo-flag", "--data", "flag-data"]))
        #expect(overridden["Project"] == "demo-flag")
        #expect(overridden["Data folder"]?.hasSuffix("/flag-data") == true)
    }

    @Test func unknownKeysWarnWithTheClosestKnownKey() throws {
        let sandbox = try Sandbox()
        try sandbox.write(#"{"prot": 9090, "projectID": "demo-typo", "datafolder": "x", "exportOnExitt": "e"}"#, to: "emulator.json")
        let result = try sandbox.run(["info"])
        #expect(result.exitCode == 0, "unknown keys are ignored, not fatal")
        #expect(result.stderr == """
            emulator.json: unknown key 'prot' (did you mean 'port'?); it is ignored
            emulator.json: unknown key 'projectID' (did you mean 'projectId'?); it is ignored
            emulator.json: unknown key 'datafolder' (did you mean 'dataFolder'?); it is ignored
            emulator.json: unknown key 'exportOnExitt' (did you mean 'exportOnExit'?); it is ignored

            """)
        #expect(info(result)["Project"] == "demo-hearth", "a mistyped key does not take effect")
    }

    @Test(arguments: [
        (
            "{\"port\": 80,\n \"host\": }",
            "Error: emulator.json: Invalid JSON at line 2, column 10: unexpected character '}', expected a value"
        ),
        ("[]", "Error: emulator.json: expected a JSON object of settings"),
        (#"{"port": "8080"}"#, "Error: emulator.json: 'port' must be an integer from 0 to 65535"),
        (#"{"port": 80.5}"#, "Error: emulator.json: 'port' must be an integer from 0 to 65535"),
        (#"{"port": 70000}"#, "Error: emulator.json: 'port' must be an integer from 0 to 65535"),
        (#"{"dataFolder": ["a"]}"#, "Error: emulator.json: 'dataFolder' must be a string"),
        (#"{"projectId": "a/b"}"#, "Error: Invalid project id 'a/b'"),
    ])
    func malformedEmulatorJSONIsReported(contents: String, message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write(contents, to: "emulator.json")
        let result = try sandbox.run(["info"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message + "\n")
        // With both defaults given on the command line the file is not needed.
        #expect(try sandbox.run(["info", "--project", "demo-x", "--data", "d"]).exitCode == 0)
    }
}
