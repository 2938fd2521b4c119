import ArgumentParser
import DocumentModel
import Foundation

/// The options of the commands that run the server (`start`, `exec`); each overrides its key
/// in `./emulator.json`.
struct ServerOptions: ParsableArguments {
    @Option(help: "The address to listen on (default: host in ./emulator.json, else 127.0.0.1).")
    var host: String?

    @Option(help: "The port for gRPC, REST and the admin endpoints; 0 picks a free one (default: port, else 8080; exec: a free one).")
    var port: Int?

    @Option(help: "The project id printed for tools (default: projectId, else demo-hearth).")
    var project: String?

    @Option(help: "The data folder (default: dataFolder, else .hearth/data; exec: a temporary folder, deleted afterwards).")
    var data: String?

    @Option(help: "The security rules file (default: rules, else rules/firestore.rules).")
    var rules: String?

    @Option(help: "debug, info, warning or error (default: logLevel, else info).")
    var logLevel: String?

    @Option(
        name: .customLong("import"),
        help: "An export in Google's format seeding every project's database, as --seed_from_export (default: import).")
    var importPath: String?

    @Option(help: "Export the project's database to this folder on a clean stop (default: exportOnExit).")
    var exportOnExit: String?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
        if let project { try UserInput.check { _ = try DatabaseID(project: project) } }
        if let logLevel, LogLevel(rawValue: logLevel.lowercased()) == nil {
            throw ValidationError("--log-level must be one of \(LogLevel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// `./emulator.json` with these options applied.
    ///
    /// - Throws: `CommandFailure` for a malformed `emulator.json` or an invalid value in it.
    func resolved() throws -> EmulatorConfiguration {
        var configuration = try EmulatorConfiguration.load(
            from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        if let project { configuration.projectId = project }
        if let data { configuration.dataFolder = data }
        if let rules { configuration.rules = rules }
        if let logLevel { configuration.logLevel = logLevel }
        if let importPath { configuration.importPath = importPath }
        if let exportOnExit { configuration.exportOnExit = exportOnExit }
        do {
            _ = try DatabaseID(project: configuration.projectId)
        } catch let error as FirestoreError {
            throw CommandFailure("emulator.json: \(error.message)")
        }
        _ = try LogLevel(parsing: configuration.logLevel)
        return configuration
    }
}
