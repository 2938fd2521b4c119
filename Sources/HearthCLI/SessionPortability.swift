import DocumentModel
import DocumentStore
import FirestoreExport

/// `import` and `exportOnExit` of a `hearth start` or `hearth exec` run. An export seeds every
/// project, as Google's emulator's `--seed_from_export` does: it replaces the configured
/// project's default database before the server starts (so bad input stops the start), and any
/// other project's on its first use (`ProjectSeeding`). The configured project's database is
/// exported when the server has stopped cleanly (after a crash or SIGKILL nothing is exported,
/// and an earlier export at the folder stays as it was).
struct SessionPortability {
    let configuration: EmulatorConfiguration
    let log: @Sendable (String) -> Void

    private var database: DatabaseID {
        get throws { try DatabaseID(project: configuration.projectId) }
    }

    /// Seeds the configured project with `configuration.importPath`, if set, and returns the
    /// seeding for the other projects.
    ///
    /// - Throws: `CommandFailure` naming the file and byte offset of bad input (nothing is changed).
    func importAtStart(into store: DocumentStore) throws -> ProjectSeeding? {
        guard let path = configuration.importPath else { return nil }
        let database = try database
        let seeding = ProjectSeeding(export: try ExportFailure.reported { try ExportReader(path: path) }, store: store)
        let count = try ExportFailure.reported {
            do {
                return try seeding.seed(database) ?? 0
            } catch let error as FirestoreError {
                throw CommandFailure(error.message)
            }
        }
        log(
            "Imported \(count) documents from \(path) into \(database.resourceName) (and into every other project on first use)"
        )
        return seeding
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
