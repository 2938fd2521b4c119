import Foundation
import Synchronization

/// A `hearth` process running in the background (such as `hearth start`), whose standard output
/// and error are collected as they arrive.
final class RunningHearth: Sendable {
    private let process: Process
    private let output = Output()

    /// What the process printed, appended to from the pipes' reader threads.
    private final class Output: Sendable {
        let text = Mutex((stdout: "", stderr: ""))
    }

    /// Starts `hearth arguments...` in `sandbox`.
    init(_ arguments: [String], in sandbox: Sandbox) throws {
        process = Process()
        process.executableURL = try Sandbox.executable.get()
        process.arguments = arguments
        process.currentDirectoryURL = sandbox.directory
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        let output = self.output
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.stdout += text }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.stderr += text }
        }
        try process.run()
    }

    /// Everything written to standard output so far.
    var stdout: String { output.text.withLock { $0.stdout } }
    /// Everything written to standard error so far.
    var stderr: String { output.text.withLock { $0.stderr } }

    /// Waits up to `timeout` seconds for standard output to contain `text`; returns whether it did.
    func waitForOutput(containing text: String, timeout: Double = 120) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stdout.contains(text) { return true }
            if !process.isRunning { return stdout.contains(text) }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Checked once more: a starved task may wake only after the deadline.
        return stdout.contains(text)
    }

    /// The port of the `export FIRESTORE_EMULATOR_HOST=host:port` line, once printed.
    /// Waits for the whole line, newline included: the output may arrive in pieces.
    func port() async throws -> Int? {
        let deadline = Date().addingTimeInterval(120)
        func parsed() -> Int? {
            let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let line = lines.first { $0.hasPrefix("export FIRESTORE_EMULATOR_HOST=") }
            return line?.split(separator: ":").last.flatMap { Int($0) }
        }
        while Date() < deadline {
            if let port = parsed() { return port }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Checked once more: under a loaded test run this task may wake only after the deadline.
        return parsed()
    }

    /// Sends `signal` and waits up to `timeout` seconds for the process to exit; returns its
    /// exit status, or `nil` if it is still running (it is then killed).
    func stop(with signal: Int32 = SIGTERM, timeout: Double = 30) async throws -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }
}
