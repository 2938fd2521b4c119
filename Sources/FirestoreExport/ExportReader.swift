package import DocumentModel
import Foundation

/// Reads the documents of an export, one at a time in constant memory, checking everything
/// the format lets it check: every record's CRC32C, every entity's encoding, and at the end the
/// document and byte counts the metadata promises (so an output file cut at a record boundary
/// is caught too).
///
/// ```swift
/// let export = try ExportReader(path: "seed")
/// try export.forEachDocument(into: database) { document, bytesRead in ... }
/// ```
package struct ExportReader: Sendable {
    /// Where the export is.
    package let location: ExportLocation
    /// The documents the metadata lists.
    package let documentCount: Int
    /// The bytes of the output files the metadata lists.
    package let byteCount: Int
    private let outputs: [String]

    /// Reads the export's metadata files (not its documents yet).
    ///
    /// - Throws: `ExportError`, naming the file and byte offset of the problem.
    package init(path: String) throws {
        location = try ExportLocation(path: path)
        let overall = try OverallMetadata.read(path: location.metadataFile, name: location.metadataFile)
        let folder = (location.metadataFile as NSString).deletingLastPathComponent
        var outputs: [String] = []
        for kinds in overall.kinds {
            let file = (folder as NSString).appendingPathComponent(kinds.metadataPath)
            let metadata = try KindMetadata.read(path: file, name: file)
            let kindsFolder = (file as NSString).deletingLastPathComponent
            outputs += metadata.outputs.map { (kindsFolder as NSString).appendingPathComponent($0) }
        }
        self.outputs = outputs
        documentCount = overall.kinds.reduce(0) { $0 + $1.entityCount }
        byteCount = overall.kinds.reduce(0) { $0 + $1.byteCount }
    }

    /// Calls `visit` with each document, decoded into `database` (see `EntityDecoder`), and the
    /// output bytes read so far.
    ///
    /// - Throws: `ExportError` naming the file and byte offset of the first problem, or what
    ///   `visit` throws.
    package func forEachDocument(into database: DatabaseID, _ visit: (Document, Int) throws -> Void) throws {
        let decoder = EntityDecoder(database: database)
        var count = 0
        var bytesBefore = 0
        var sizeBeforeLast = 0
        for output in outputs {
            sizeBeforeLast = bytesBefore
            var log = try LogReader(path: output)
            while let record = try log.next() {
                let document: Document
                do {
                    document = try decoder.decode(record.bytes)
                } catch let error as ExportError {
                    throw error.located(in: output, at: record.offset)
                }
                count += 1
                try visit(document, bytesBefore + log.offset)
            }
            bytesBefore += log.offset
        }
        guard count == documentCount, bytesBefore == byteCount else {
            // Cut at a record boundary: the last output file ends early.
            let lastSize = outputs.isEmpty ? 0 : bytesBefore - sizeBeforeLast
            throw ExportError(
                .truncated,
                "the output ends after \(count) documents in \(bytesBefore) bytes; the metadata lists \(documentCount) in \(byteCount)",
                file: outputs.last ?? location.metadataFile, offset: lastSize)
        }
    }
}
