import Foundation

/// What one run of `hearth` did.
struct CommandResult {
    var exitCode: Int32
    var stdout: String
    var stderr: String
}

/// A temporary working directory in which tests run the built `hearth` executable, so its
/// default data folder (`.hearth/data`) and `emulator.json` are the sandbox's own.
final class Sandbox {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The default data folder of commands run here.
    var dataFolder: URL { directory.appendingPathComponent(".hearth/data") }

    /// Writes `text` to `name` in the sandbox.
    func write(_ text: String, to name: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Runs `hearth arguments...` in the sandbox with `stdin` as its standard input (empty if
    /// `nil`) and `environment` added to this process's, capturing its output in files so that
    /// no pipe can fill up.
    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("stdin")
        let output = scratch.appendingPathComponent("stdout")
        let errors = scratch.appendingPathComponent("stderr")
        try Data((stdin ?? "").utf8).write(to: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let process = Process()
        process.executableURL = try Sandbox.executable.get()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return CommandResult(
            exitCode: process.terminationStatus,
            stdout: try String(contentsOf: output, encoding: .utf8),
            stderr: try String(contentsOf: errors, encoding: .utf8))
    }

    /// The built `hearth`, found next to the test bundle in the build products directory, for
    /// any `--scratch-path`.
    static let executable: Result<URL, any Error> = Result {
        var directories = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        let candidates = directories.map { $0.appendingPathComponent("hearth") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [NSLocalizedDescriptionKey: "hearth executable not found in \(candidates.map(\.path))"])
        }
        return found
    }
}
