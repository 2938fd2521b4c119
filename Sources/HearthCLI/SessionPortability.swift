import DocumentModel
import DocumentStore
import FirestoreExport

/// `import` and `exportOnExit` of a `hearth start` or `hearth exec` run: an export replaces the
/// project's default database before the server starts, and the database is exported when the
/// server has stopped cleanly (after a crash or SIGKILL nothing is exported, and an earlier
/// export at the folder stays as it was).
struct SessionPortability {
    let configuration: EmulatorConfiguration
    let log: @Sendable (String) -> Void

    private var database: DatabaseID {
        get throws { try DatabaseID(project: configuration.projectId) }
    }

    /// Imports `configuration.importPath`, if set, replacing the database's documents.
    ///
    /// - Throws: `CommandFailure` naming the file and byte offset of bad input (nothing is changed).
    func importAtStart(into store: DocumentStore) throws {
        guard let path = configuration.importPath else { return }
        let database = try database
        let count = try ExportFailure.reported {
            try StoreImporter(database: database, mode: .replace).run(ExportReader(path: path), into: store)
        }
        log("Imported \(count) documents from \(path) into \(database.resourceName)")
    }

    /// Exports the database to `configuration.exportOnExit`, if set.
    func exportOnExit(from store: DocumentStore) throws {
        guard let folder = configuration.exportOnExit else { return }
        let database = try database
        let summary = try ExportFailure.reported {
            try StoreExporter.export(database: database, of: store, to: folder, layout: .firebaseTools)
        }
        log("Exported \(summary.documents) documents of \(database.resourceName) to \(folder)")
    }
}
