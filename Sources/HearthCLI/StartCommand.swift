import ArgumentParser
import Foundation

/// `hearth start`: runs the emulator on emulator.json's settings until SIGINT or SIGTERM.
struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Run the emulator: Firestore's gRPC and REST APIs and the admin endpoints on one port.",
        discussion: """
            Point the official clients at it with FIRESTORE_EMULATOR_HOST (printed when ready). \
            Every option overrides its key in ./emulator.json. The rules file applies to every \
            project and is reloaded when it changes (a file with errors keeps the last good rules); \
            without one, every request is allowed, as in Google's emulator. Ctrl-C (SIGINT) or \
            SIGTERM stops it gracefully: open requests finish and the data folder is closed cleanly.
            """
    )

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let configuration = try options.resolved()
        let signals = SignalMonitor(exitOnRepeat: true)
        defer { signals.stop() }
        try await EmulatorSession.run(configuration, log: EmulatorSession.printLine) { address in
            EmulatorSession.printLine(
                "Hearth ready at \(address) (gRPC, REST, admin) for project \(configuration.projectId), "
                    + "data in \(configuration.dataFolder)")
            EmulatorSession.printLine("export FIRESTORE_EMULATOR_HOST=\(address)")
            EmulatorSession.printLine("Console at http://\(address)/ui/")
            let signal = await signals.firstSignal()
            EmulatorSession.printLine("Hearth stopping (\(signal == SIGINT ? "SIGINT" : "SIGTERM")): finishing open requests")
        }
        EmulatorSession.printLine("Hearth stopped")
    }
}
