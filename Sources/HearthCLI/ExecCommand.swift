import ArgumentParser
import EmulatorServer
import Foundation

/// `hearth exec -- <command>`: runs a command against a fresh emulator, as
/// `firebase emulators:exec` does: on a free port and a temporary data folder deleted afterwards
/// (unless `--port` or `--data` say otherwise), with emulator.json's rules, project and import, so
/// it works beside a running `hearth start` and never touches its data.
struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Start the emulator, run a command with FIRESTORE_EMULATOR_HOST and GCLOUD_PROJECT set, stop.",
        discussion: """
            The emulator is fresh: it listens on a free port and keeps its data in a temporary folder \
            that is deleted afterwards, whatever emulator.json's port and dataFolder say; --port and \
            --data choose others (--data .hearth/data to use the development data). The rules file, \
            project and import come from emulator.json as for start. Exits with the command's status \
            (128 + the signal if a signal ended it). Request logs go to standard error, failed \
            requests only unless --log-level says otherwise. SIGTERM is passed on to the command; \
            SIGINT from the terminal reaches it directly.
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
        if options.port == nil { configuration.port = 0 }
        var temporaryFolder: URL?
        if options.data == nil {
            let folder = try Self.makeTemporaryDataFolder()
            temporaryFolder = folder
            configuration.dataFolder = folder.appendingPathComponent("data").path
        }
        defer { if let temporaryFolder { try? FileManager.default.removeItem(at: temporaryFolder) } }
        let signals = SignalMonitor(exitOnRepeat: false)
        defer { signals.stop() }
        let status = try await EmulatorSession.run(configuration, log: EmulatorSession.printError) { address in
            try await runCommand(address: address, project: configuration.projectId, signals: signals)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// A new empty folder under the system's temporary directory, for one run's data.
    private static func makeTemporaryDataFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-exec-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create a temporary data folder in \(folder.deletingLastPathComponent().path): "
                + error.localizedDescription)
        }
        return folder
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
