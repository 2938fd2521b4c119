import ArgumentParser
import DocumentModel
import Foundation

/// The options every data command shares: the data folder and the database in it.
struct StoreOptions: ParsableArguments {
    @Option(help: "The data folder (default: dataFolder in ./emulator.json, else .hearth/data).")
    var data: String?

    @Option(help: "The project id (default: projectId in ./emulator.json, else demo-hearth).")
    var project: String?

    @Option(help: "The database id.")
    var database = DatabaseID.defaultDatabase

    /// Checks the ids given on the command line; a project id from `emulator.json` is checked
    /// when it is read.
    func validate() throws {
        try UserInput.check {
            _ = try DatabaseID(project: project ?? EmulatorConfiguration().projectId, database: database)
        }
    }

    /// The folder and database the command works on, taking what the options leave open from
    /// `./emulator.json` (read only then).
    ///
    /// - Throws: `CommandFailure` for a malformed `emulator.json`, `FirestoreError` for an
    ///   invalid project id in it.
    func location() throws -> StoreLocation {
        let configuration =
            data == nil || project == nil
            ? try EmulatorConfiguration.load(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            : EmulatorConfiguration()
        return StoreLocation(
            folder: data ?? configuration.dataFolder,
            databaseID: try DatabaseID(project: project ?? configuration.projectId, database: database))
    }
}

/// Where a command's documents live.
struct StoreLocation {
    /// The data folder, as given.
    var folder: String
    /// The project and database.
    var databaseID: DatabaseID
}
