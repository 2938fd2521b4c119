import DocumentModel
import DocumentStore
import Foundation

/// Imports an export into one database of a store, all or nothing.
///
/// The export is read twice, streaming: first every record is checked (checksums, encoding,
/// names, Firestore's limits) and nothing is written, so bad input imports nothing; then the
/// documents are committed in batches. Without `merge` the database must be empty, and if a
/// batch fails (a full disk, say) the documents already imported are deleted again; with
/// `merge` a document with the same name is overwritten, and such a failure leaves the batches
/// committed before it.
///
/// ```swift
/// let summary = try StoreImporter(database: db, merge: false).run(try ExportReader(path: "seed"), into: store)
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

    /// The database documents go into.
    package var database: DatabaseID
    /// Overwrite documents with the same name instead of requiring an empty database.
    package var merge: Bool
    /// Documents per commit.
    package var batchSize = 1_000
    /// Called after each batch with how far the import is.
    package var progress: ((Progress) -> Void)?

    package init(database: DatabaseID, merge: Bool, progress: ((Progress) -> Void)? = nil) {
        self.database = database
        self.merge = merge
        self.progress = progress
    }

    /// Imports `export` into `store` and returns the number of documents imported.
    ///
    /// - Throws: `ExportError` for bad input (nothing is imported) or a non-empty database;
    ///   `FirestoreError` from the store.
    @discardableResult
    package func run(_ export: ExportReader, into store: DocumentStore) throws -> Int {
        let start = Date()
        if !merge, try store.hasDocuments(in: database) {
            throw ExportError(
                .notEmpty, "\(database.resourceName) has documents: import into an empty database, or merge")
        }
        var checked = 0
        try export.forEachDocument(into: database) { document, bytes in
            do {
                try DocumentStore.validate([.set(document.name, fields: document.fields)])
            } catch let error as FirestoreError {
                throw ExportError(.malformed, "document \(document.name.path): \(error.message)", file: export.location.metadataFile)
            }
            checked += 1
            if checked % batchSize == 0 { report("checking", checked, bytes, export, since: start) }
        }
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
            if !merge { _ = try? store.clear(database) }
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
