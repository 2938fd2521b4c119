import DocumentModel
import LevelDB

/// Builds the single-field index of a store written before the index existed (format 1).
enum IndexRebuild {
    /// Writes the index entries of the newest version of every live document, then marks the
    /// store as `format`. Runs while the store opens, before any commit or read.
    static func run(_ database: Database, upgradingTo format: UInt64) throws {
        let cursor = try database.makeCursor(options: ReadOptions(fillCache: false))
        let documentsPrefix = [StorageKeys.Table.documents.rawValue]
        let batch = WriteBatch()
        cursor.seek(to: documentsPrefix)
        while cursor.isValid, cursor.keyHasPrefix(documentsPrefix) {
            // The first key of a document is its newest version.
            let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
            if let document = try cursor.withValue({ try StoredVersion.decode($0, name: name) }).document {
                IndexEntries.update(batch, before: nil, after: document)
            }
            if batch.byteCount > 4 << 20 {
                try database.write(batch)
                batch.clear()
            }
            // Past the older versions, to the document's subcollections or its next sibling.
            guard let next = KeyRange.successor(ofPrefix: StorageKeys.versionsPrefix(name)) else { break }
            cursor.seek(to: next)
        }
        try cursor.checkError()
        var formatBytes = OrderedKey(capacity: 8)
        formatBytes.appendUInt64(format)
        batch.put(StorageKeys.metadata(.formatVersion), formatBytes.bytes)
        try database.write(batch, sync: true)
    }
}
