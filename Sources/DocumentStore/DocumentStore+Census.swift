import DocumentModel
import LevelDB

extension DocumentStore {
    /// Every database that has stored documents (live ones, or deleted ones still within the
    /// retention window), in key order: one seek per database, whatever its size.
    ///
    /// - Throws: `.dataLoss` for damaged storage.
    package func databaseIDs() throws -> [DatabaseID] {
        try mapLevelDBErrors(reading: "The list of databases") {
            let cursor = try database.makeCursor(options: ReadOptions(fillCache: false))
            let table = [StorageKeys.Table.documents.rawValue]
            var found: [DatabaseID] = []
            cursor.seek(to: table)
            while cursor.isValid, cursor.keyHasPrefix(table) {
                var reader = OrderedKeyReader(cursor.key, offset: 1)
                let databaseID = try DatabaseID(project: try reader.readString(), database: try reader.readString())
                found.append(databaseID)
                guard let next = KeyRange.successor(ofPrefix: StorageKeys.databasePrefix(databaseID).bytes) else { break }
                cursor.seek(to: next)
            }
            try cursor.checkError()
            return found
        }
    }

    /// How many live documents `databaseID` holds as of the latest commit, from one consistent
    /// snapshot. Reads one key and the first byte of one value per document (no document is
    /// decoded, nothing enters the block cache): the cheapest count the storage layout allows,
    /// as a database keeps no running total.
    ///
    /// - Throws: `.dataLoss` for damaged storage.
    package func documentCount(in databaseID: DatabaseID) throws -> Int {
        try withSnapshotReader(databaseID, readTime: nil, reading: "The documents of \(databaseID)") { reader in
            let prefix = StorageKeys.databasePrefix(databaseID).bytes
            let readVersion = StorageKeys.descending(reader.version)
            var options = reader.options
            options.fillCache = false
            let cursor = try reader.database.makeCursor(options: options)
            var count = 0
            cursor.seek(to: prefix)
            while cursor.isValid, cursor.keyHasPrefix(prefix) {
                let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
                let versions = StorageKeys.versionsPrefix(name)
                cursor.seek(to: versions + readVersion)
                if cursor.isValid, cursor.keyHasPrefix(versions), cursor.withValue(StoredVersion.isLive) { count += 1 }
                cursor.seek(to: KeyRange.successor(ofPrefix: versions) ?? [0xFF])
            }
            try cursor.checkError()
            return count
        }
    }
}
