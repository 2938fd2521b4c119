import ArgumentParser
import Foundation

/// The data folder option of the commands that work on a whole folder (`check`, `repair`).
struct DataFolderOptions: ParsableArguments {
    @Option(help: "The data folder (default: dataFolder in ./emulator.json, else .hearth/data).")
    var data: String?

    /// The folder, from `--data` or else `./emulator.json`.
    ///
    /// - Throws: `CommandFailure` for a malformed `emulator.json`.
    func folder() throws -> String {
        if let data { return data }
        return try EmulatorConfiguration.load(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .dataFolder
    }
}
