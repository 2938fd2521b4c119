import DocumentModel
import LevelDB

/// Upgrades a store written by an older format, rebuilding its single-field index: format 1
/// had no index, format 2 had index keys that spelled out the project, database and collection
/// group, formats before 4 encoded numeric document ids as strings in every path (document
/// and expiry keys are moved first, by `DocumentKeyUpgrade`), and formats before 5 had an index
/// entry per document.
enum IndexRebuild {
    /// Moves document keys to the current encoding (from formats before 4), deletes every index
    /// entry and index group id, writes the index entries of the newest version of every live
    /// document, then marks the store as `format`. Runs while the store opens, before any
    /// commit or read. If it is interrupted, the store keeps its old format and the next open
    /// starts over.
    static func run(_ database: Database, upgradingFrom oldFormat: UInt64, to format: UInt64) throws {
        if oldFormat < 4 { try DocumentKeyUpgrade.run(database) }
        let batch = WriteBatch()
        func flushIfLarge() throws {
            guard batch.byteCount > 4 << 20 else { return }
            try database.write(batch)
            batch.clear()
        }
        if oldFormat >= 2 {
            for table in [StorageKeys.Table.index, .indexGroups] {
                try database.forEachEntry(withPrefix: [table.rawValue]) { key, _ in
                    batch.delete(key)
                    try flushIfLarge()
                }
            }
            try database.write(batch)
            batch.clear()
        }
        var groups = IndexGroupCatalog()
        let scratch = KeyScratch()
        let cursor = try database.makeCursor(options: ReadOptions(fillCache: false))
        let documentsPrefix = [StorageKeys.Table.documents.rawValue]
        cursor.seek(to: documentsPrefix)
        while cursor.isValid, cursor.keyHasPrefix(documentsPrefix) {
            // The first key of a document is its newest version.
            let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
            if let document = try cursor.withValue({ try StoredVersion.decode($0, name: name) }).document {
                IndexEntries.update(
                    batch, before: nil, after: document, path: StorageKeys.encodedPath(name.path)[...], groups: &groups,
                    scratch: scratch)
            }
            try flushIfLarge()
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
