import ArgumentParser
import DocumentModel
import DocumentStore
import FirestoreExport
import Foundation

/// `hearth export DIR`: writes one database of a data folder as a firebase-tools export.
struct ExportCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a database in Google's Firestore export format (the firebase-tools layout).",
        discussion: """
            DIR gets firebase-export-metadata.json and firestore_export/, which `firebase emulators:start \
            --import DIR`, Google's emulator (--seed_from_export=DIR/firestore_export/\
            firestore_export.overall_export_metadata) and `hearth import DIR` read. The export is written \
            to a hidden folder beside DIR and renamed when complete; an existing export at DIR is replaced.
            """
    )

    @Argument(help: "The folder to write the export to.")
    var directory: String

    @OptionGroup var options: StoreOptions

    func run(on store: DocumentStore, at location: StoreLocation) throws {
        let start = Date()
        let summary = try ExportFailure.reported {
            try StoreExporter.export(database: location.databaseID, of: store, to: directory, layout: .firebaseTools)
        }
        let seconds = Date().timeIntervalSince(start)
        print(
            "Exported \(summary.documents) documents (\(ImportProgressLine.megabytes(summary.bytes))) of "
                + "\(location.databaseID.resourceName) to \(directory) in \(String(format: "%.1f", seconds)) s")
    }
}

/// Turns an `ExportError` into the command's `Error: <file>: byte <offset>: <message>`.
enum ExportFailure {
    static func reported<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as ExportError {
            throw CommandFailure(error.description)
        }
    }
}
