package import DocumentModel
package import DocumentStore
import Foundation

/// Exports one database of a store in Firestore's format (see `ExportWriter`): every live
/// document as of one consistent snapshot, streamed, so memory stays constant.
///
/// ```swift
/// let summary = try StoreExporter.export(database: db, of: store, to: "seed", layout: .firebaseTools)
/// ```
package enum StoreExporter {
    /// Writes the export and returns what it holds; on failure no export is left at `destination`
    /// (an existing one stays as it was).
    package static func export(
        database: DatabaseID, of store: DocumentStore, to destination: String, layout: ExportWriter.Layout
    ) throws -> ExportWriter.Summary {
        let writer = try ExportWriter(destination: destination, layout: layout, startMicroseconds: nowMicroseconds())
        do {
            try store.forEachDocument(in: database) { try writer.append($0) }
            return try writer.finish(endMicroseconds: nowMicroseconds())
        } catch {
            writer.abandon()
            throw error
        }
    }

    private static func nowMicroseconds() -> Int64 {
        Timestamp(date: Date()).microsecondsSinceEpoch
    }
}
