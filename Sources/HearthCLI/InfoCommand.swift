import ArgumentParser
import DocumentModel
import DocumentStore
import Foundation

/// `hearth info`: where the data is and what state it is in.
struct InfoCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the data folder, project, database, storage format and last commit time."
    )

    @OptionGroup var options: StoreOptions

    func run(on store: DocumentStore, at location: StoreLocation) throws {
        let folder = URL(fileURLWithPath: location.folder).standardizedFileURL.path
        print("Data folder:    \(folder)")
        print("Project:        \(location.databaseID.project)")
        print("Database:       \(location.databaseID.database)")
        print("Format version: \(DocumentStore.formatVersion)")
        print("Last commit:    \(store.lastCommitTime.map(\.description) ?? "no commits yet")")
    }
}
