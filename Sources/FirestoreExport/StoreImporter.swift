package import DocumentModel
package import DocumentStore
import Foundation

/// Imports an export into one database of a store, all or nothing.
///
/// The export is read once, streaming, and loaded as one commit (`DocumentStore.bulkLoad`):
/// every record is checked (checksums, encoding, names, Firestore's limits) as it is loaded,
/// and bad input, a failing write (a full disk) or the process dying (SIGKILL) leaves the
/// database as it was: what was written is deleted again, and nobody reads the database in
/// between (readers see the import only once it is complete). See `Mode` for what happens to
/// documents already there.
///
/// ```swift
/// let count = try StoreImporter(database: db, mode: .intoEmpty).run(try ExportReader(path: "seed"), into: store)
/// ```
package struct StoreImporter {
    /// How far an import is.
    package struct Progress: Sendable {
        package var documents: Int
        package var totalDocuments: Int
        package var bytes: Int
        package var totalBytes: Int
        package var elapsedSeconds: Double
    }

    /// What an import does with the documents already in the database.
    package enum Mode: Sendable {
        /// The database must be empty (else `ExportError.notEmpty`).
        case intoEmpty
        /// A document with the same name is overwritten, others are kept.
        case merge
        /// The database's documents are deleted and the export's imported, in one commit (what
        /// `hearth start --import` does, as Google's emulator starts from its seed).
        case replace
    }

    /// The database documents go into.
    package var database: DatabaseID
    /// What happens to documents already there.
    package var mode: Mode
    /// The bytes of each write batch (see `DocumentStore.bulkLoad`).
    package var batchBytes = DocumentStore.bulkLoadBatchBytes
    /// Documents between two progress reports.
    package var progressInterval = 1_000
    /// Called every `progressInterval` documents with how far the import is.
    package var progress: ((Progress) -> Void)?

    package init(database: DatabaseID, mode: Mode, progress: ((Progress) -> Void)? = nil) {
        self.database = database
        self.mode = mode
        self.progress = progress
    }

    /// Imports `export` into `store` and returns the number of documents imported.
    ///
    /// - Throws: `ExportError` for bad input or a non-empty database (nothing is imported);
    ///   `FirestoreError` from the store (nothing is imported).
    @discardableResult
    package func run(_ export: ExportReader, into store: DocumentStore) throws -> Int {
        let start = Date()
        if mode == .intoEmpty, try store.hasDocuments(in: database) {
            throw ExportError(
                .notEmpty, "\(database.resourceName) has documents: import into an empty database, or merge")
        }
        var imported = 0
        try store.bulkLoad(into: database, replacing: mode == .replace, batchBytes: batchBytes) { loader in
            try export.forEachDocument(into: database) { document, bytes in
                do {
                    try loader.add(document.name, fields: document.fields)
                } catch let error as FirestoreError where error.code == .invalidArgument {
                    throw ExportError(
                        .malformed, "document \(document.name.path): \(error.message)",
                        file: export.location.metadataFile)
                }
                imported += 1
                if imported % progressInterval == 0 { report(imported, bytes, export, since: start) }
            }
        }
        report(imported, export.byteCount, export, since: start)
        return imported
    }

    private func report(_ documents: Int, _ bytes: Int, _ export: ExportReader, since start: Date) {
        progress?(
            Progress(
                documents: documents, totalDocuments: export.documentCount, bytes: bytes,
                totalBytes: export.byteCount, elapsedSeconds: Date().timeIntervalSince(start)))
    }
}
