import ArgumentParser
import EmulatorServer
import Foundation

/// `hearth exec -- <command>`: runs a command against a fresh emulator, as
/// `firebase emulators:exec` does.
struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Start the emulator, run a command with FIRESTORE_EMULATOR_HOST and GCLOUD_PROJECT set, stop.",
        discussion: """
            Exits with the command's status (128 + the signal if a signal ended it). Request logs go to \
            standard error, failed requests only unless --log-level says otherwise. SIGTERM is passed \
            on to the command; SIGINT from the terminal reaches it directly.
            """
    )

    @OptionGroup var options: ServerOptions

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("Give the command to run after --, as in: hearth exec -- npm test") }
    }

    func run() async throws {
        var configuration = try options.resolved()
        if options.logLevel == nil { configuration.logLevel = LogLevel.warning.rawValue }
        let signals = SignalMonitor(exitOnRepeat: false)
        defer { signals.stop() }
        let status = try await EmulatorSession.run(configuration, log: EmulatorSession.printError) { address in
            try await runCommand(address: address, project: configuration.projectId, signals: signals)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the command to its end and returns its exit status.
    private func runCommand(address: ServerAddress, project: String, signals: SignalMonitor) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        var environment = ProcessInfo.processInfo.environment
        environment["FIRESTORE_EMULATOR_HOST"] = address.description
        environment["GCLOUD_PROJECT"] = project
        process.environment = environment
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        do {
            try process.run()
        } catch {
            throw CommandFailure("cannot run \(command[0]): \(error.localizedDescription)")
        }
        let forwarding = Task {
            for await number in signals.signals where number == SIGTERM { process.terminate() }
        }
        for await _ in exited.stream {}
        forwarding.cancel()
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }
}
