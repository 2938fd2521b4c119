import DocumentStore
import Foundation
import Testing

/// How `hearth` reports mistakes: `Error: <message>`, usage for usage mistakes, a non-zero exit
/// code, and never a crash or stack trace.
@Suite struct ErrorReportingTests {
    private func expectCleanFailure(
        _ result: CommandResult, exitCode: Int32, startsWith prefix: String, mentioning text: String? = nil,
        usage: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.exitCode == exitCode, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)", sourceLocation: sourceLocation)
        if let text {
            #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
        }
        if let usage {
            #expect(result.stderr.contains("\nUsage: \(usage)"), "\(result.stderr)", sourceLocation: sourceLocation)
        } else {
            #expect(!result.stderr.contains("Usage:"), "\(result.stderr)", sourceLocation: sourceLocation)
        }
        for crashSign in ["Fatal error", "Stack dump", "backtrace", "Crash", "#0 "] {
            #expect(!result.stderr.contains(crashSign), "\(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test func badJSONPrintsTheErrorAndUsage() throws {
        let sandbox = try Sandbox()
        expectCleanFailure(
            try sandbox.run(["set", "users/alice", "{bad"]), exitCode: 64,
            startsWith: "Error: Invalid JSON at line 1, column 2: expected a string key\n", usage: "hearth set")
        expectCleanFailure(
            try sandbox.run(["set", "users/alice", #"{"age": {"intValue": "1"}}"#]), exitCode: 64,
            startsWith: "Error: Invalid value for field 'age': unknown key 'intValue'",
            usage: "hearth set")
        expectCleanFailure(
            try sandbox.run(["set", "users/alice", #"{"n": {"integerValue": "9223372036854775808"}}"#]), exitCode: 64,
            startsWith: "Error: Invalid value for field 'n': a number is out of range", usage: "hearth set"
        )
        expectCleanFailure(
            try sandbox.run(["set", "users/alice", "-"], stdin: "[1, 2"), exitCode: 1,
            startsWith: "Error: Invalid JSON at line 1, column 6: expected ',' or ']' in an array\n", usage: nil)
        #expect(try sandbox.run(["get", "users/alice"]).exitCode == 1)
    }

    @Test func badPathsAndOptionsPrintTheErrorAndUsage() throws {
        let sandbox = try Sandbox()
        expectCleanFailure(
            try sandbox.run(["get", "users"]), exitCode: 64,
            startsWith: "Error: 'users' is not a document path", usage: "hearth get <document-path>")
        expectCleanFailure(
            try sandbox.run(["delete", "users//alice"]), exitCode: 64,
            startsWith: "Error: ", mentioning: "users//alice", usage: "hearth delete")
        expectCleanFailure(
            try sandbox.run(["list", "users/alice"]), exitCode: 64,
            startsWith: "Error: 'users/alice' is not a collection path", usage: "hearth list")
        expectCleanFailure(
            try sandbox.run(["list", "users", "--limit", "0"]), exitCode: 64,
            startsWith: "Error: --limit must be at least 1", usage: "hearth list")
        expectCleanFailure(
            try sandbox.run(["get", "users/__x__"]), exitCode: 64,
            startsWith: "Error: ", mentioning: "__x__", usage: "hearth get")
        expectCleanFailure(
            try sandbox.run(["info", "--project", "a/b"]), exitCode: 64,
            startsWith: "Error: Invalid project id 'a/b'", usage: "hearth info")
        expectCleanFailure(
            try sandbox.run(["get"]), exitCode: 64, startsWith: "Error: Missing expected argument '<document-path>'",
            usage: "hearth get")
        expectCleanFailure(
            try sandbox.run(["frobnicate"]), exitCode: 64, startsWith: "Error: Unexpected argument 'frobnicate'",
            usage: "hearth")
    }

    @Test func aFolderInUseIsReportedWithoutUsage() throws {
        let sandbox = try Sandbox()
        let store = try DocumentStore(path: sandbox.dataFolder.path)
        defer { try? store.close() }
        expectCleanFailure(
            try sandbox.run(["get", "users/alice"]), exitCode: 1,
            startsWith: "Error: data folder '.hearth/data' is in use by another process", usage: nil)
    }

    @Test func helpListsTheSubcommands() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run(["--help"])
        #expect(help.exitCode == 0)
        #expect(help.stdout.contains("USAGE: hearth <subcommand>"))
        for line in ["  info (default) ", "  get ", "  set ", "  delete ", "  list "] {
            #expect(help.stdout.contains("\n" + line), "\(line) missing from \(help.stdout)")
        }
        let setHelp = try sandbox.run(["set", "--help"])
        #expect(setHelp.exitCode == 0)
        for text in [
            "USAGE: hearth set <document-path> <json> [--merge]", "--data <data>", "--project <project>",
            "--database <database>", "(default: (default))",
        ] {
            #expect(setHelp.stdout.contains(text), "\(text) missing from \(setHelp.stdout)")
        }
    }
}
