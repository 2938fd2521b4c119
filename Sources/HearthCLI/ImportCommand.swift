import ArgumentParser
import DocumentModel
import DocumentStore
import FirestoreExport
import Foundation

/// `hearth import PATH`: loads an export in Google's Firestore format into a data folder.
struct ImportCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an export in Google's Firestore export format, all or nothing.",
        discussion: """
            PATH is an export folder (with its *.overall_export_metadata file), a firebase-tools export \
            folder (with firebase-export-metadata.json), or the .overall_export_metadata file. The import is \
            one commit, all or nothing (--merge too): bad input gives an error naming the file and byte \
            offset, and bad input, a failed write or the process being killed leaves the database as it was. \
            The documents go into --project (default: projectId in ./emulator.json) and --database; the \
            database must be empty unless --merge is given.
            """
    )

    @Argument(help: "The export: a folder or an .overall_export_metadata file.")
    var path: String

    @Flag(help: "Import into a database that has documents, overwriting those with the same name.")
    var merge = false

    @OptionGroup var options: StoreOptions

    func run(on store: DocumentStore, at location: StoreLocation) throws {
        let line = isatty(STDERR_FILENO) == 1 ? ImportProgressLine() : nil
        let count = try ExportFailure.reported {
            let importer = StoreImporter(database: location.databaseID, mode: merge ? .merge : .intoEmpty) {
                line?.show($0)
            }
            return try importer.run(ExportReader(path: path), into: store)
        }
        line?.finish()
        print("Imported \(count) documents into \(location.databaseID.resourceName)")
    }
}
