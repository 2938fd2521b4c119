import DocumentModel
import DocumentStore
import Foundation

/// Imports an export into one database of a store, all or nothing.
///
/// The export is read twice, streaming: first every record is checked (checksums, encoding,
/// names, Firestore's limits) and nothing is written, so bad input imports nothing; then the
/// documents are committed in batches. See `Mode` for what happens to documents already there.
///
/// ```swift
/// let count = try StoreImporter(database: db, mode: .intoEmpty).run(try ExportReader(path: "seed"), into: store)
/// ```
package struct StoreImporter {
    /// How far an import is.
    package struct Progress: Sendable {
        /// `checking` (the first pass) or `importing`.
        package var phase: String
        package var documents: Int
        package var totalDocuments: Int
        package var bytes: Int
        package var totalBytes: Int
        package var elapsedSeconds: Double
    }

    /// What an import does with the documents already in the database.
    package enum Mode: Sendable {
        /// The database must be empty (else `ExportError.notEmpty`); if a batch fails (a full
        /// disk, say) the documents already imported are deleted again.
        case intoEmpty
        /// A document with the same name is overwritten, others are kept; a failing batch leaves
        /// the batches committed before it.
        case merge
        /// The database's documents are deleted once the export is checked, then the export is
        /// imported (what `hearth start --import` does, as Google's emulator starts from its seed).
        case replace
    }

    /// The database documents go into.
    package var database: DatabaseID
    /// What happens to documents already there.
    package var mode: Mode
    /// Documents per commit.
    package var batchSize = 1_000
    /// Called after each batch with how far the import is.
    package var progress: ((Progress) -> Void)?

    package init(database: DatabaseID, mode: Mode, progress: ((Progress) -> Void)? = nil) {
        self.database = database
        self.mode = mode
        self.progress = progress
    }

    /// Imports `export` into `store` and returns the number of documents imported.
    ///
    /// - Throws: `ExportError` for bad input (nothing is imported) or a non-empty database;
    ///   `FirestoreError` from the store.
    @discardableResult
    package func run(_ export: ExportReader, into store: DocumentStore) throws -> Int {
        let start = Date()
        if mode == .intoEmpty, try store.hasDocuments(in: database) {
            throw ExportError(
                .notEmpty, "\(database.resourceName) has documents: import into an empty database, or merge")
        }
        var checked = 0
        try export.forEachDocument(into: database) { document, bytes in
            do {
                try DocumentStore.validate([.set(document.name, fields: document.fields)])
            } catch let error as FirestoreError {
                throw ExportError(
                    .malformed, "document \(document.name.path): \(error.message)", file: export.location.metadataFile)
            }
            checked += 1
            if checked % batchSize == 0 { report("checking", checked, bytes, export, since: start) }
        }
        if mode == .replace { try store.clear(database) }
        var batch: [Write] = []
        var imported = 0
        do {
            try export.forEachDocument(into: database) { document, bytes in
                batch.append(.set(document.name, fields: document.fields))
                if batch.count == batchSize {
                    try store.commit(batch)
                    imported += batch.count
                    batch.removeAll(keepingCapacity: true)
                    report("importing", imported, bytes, export, since: start)
                }
            }
            if !batch.isEmpty {
                try store.commit(batch)
                imported += batch.count
            }
        } catch {
            if mode != .merge { _ = try? store.clear(database) }
            throw error
        }
        report("importing", imported, export.byteCount, export, since: start)
        return imported
    }

    private func report(_ phase: String, _ documents: Int, _ bytes: Int, _ export: ExportReader, since start: Date) {
        progress?(
            Progress(
                phase: phase, documents: documents, totalDocuments: export.documentCount, bytes: bytes,
                totalBytes: export.byteCount, elapsedSeconds: Date().timeIntervalSince(start)))
    }
}
