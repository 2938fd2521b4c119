import ArgumentParser

/// `hearth`: the command-line tool of the Hearth emulator.
///
/// ```
/// $ hearth set users/alice '{"name": {"stringValue": "Alice"}}'
/// $ hearth get users/alice
/// $ hearth list users --names-only
/// ```
@main
struct HearthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth",
        abstract: "Hearth, a Firestore-compatible emulator: run it, and inspect and edit its data folder.",
        discussion: """
            --data and --project default to the dataFolder and projectId keys of ./emulator.json, \
            else to .hearth/data and demo-hearth. A data folder can be used by one process at a time.
            """,
        subcommands: [
            InfoCommand.self, StartCommand.self, ExecCommand.self, GetCommand.self, SetCommand.self, DeleteCommand.self,
            ListCommand.self, ImportCommand.self, ExportCommand.self, RulesCommand.self, CheckCommand.self,
            RepairCommand.self,
        ],
        defaultSubcommand: InfoCommand.self
    )
}
