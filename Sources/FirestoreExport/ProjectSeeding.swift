package import DocumentModel
package import DocumentStore
import Synchronization

/// An export loaded into every project on first use, as Google's emulator does with
/// `--seed_from_export`: the first request that names a project's default database replaces its
/// documents with the export's (later requests wait for it), once per run. `hearth start
/// --import` seeds the configured project at start and every other project this way.
///
/// ```swift
/// let seeding = ProjectSeeding(export: try ExportReader(path: "seed"), store: store)
/// try seeding.seed(database)   // before serving a request for `database`
/// ```
package final class ProjectSeeding: Sendable {
    private let export: ExportReader
    private let store: DocumentStore
    /// The projects seeded (or being seeded: the lock is held meanwhile).
    private let seeded = Mutex<Set<String>>([])

    package init(export: ExportReader, store: DocumentStore) {
        self.export = export
        self.store = store
    }

    /// Seeds `database`'s project if it is a default database not seeded yet in this run.
    ///
    /// - Returns: the documents imported, or `nil` if there was nothing to do.
    /// - Throws: `FirestoreError` (`.internal` for an export that cannot be read any more).
    @discardableResult
    package func seed(_ database: DatabaseID) throws -> Int? {
        guard database.database == DatabaseID.defaultDatabase else { return nil }
        return try seeded.withLock { projects in
            guard !projects.contains(database.project) else { return nil }
            let count: Int
            do {
                count = try StoreImporter(database: database, mode: .replace).run(export, into: store)
            } catch let error as ExportError {
                throw FirestoreError(.internal, "Seeding \(database.resourceName) failed: \(error.description)")
            }
            projects.insert(database.project)
            return count
        }
    }
}
