package import DocumentModel
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
    /// snapshot: one pass over the database's keys, reading the first byte of each document's
    /// newest version (the first of its keys, versions sorting newest first), no document
    /// decoded and nothing added to the block cache. The cheapest count the storage layout
    /// allows, as a database keeps no running total.
    ///
    /// - Throws: `.dataLoss` for damaged storage.
    package func documentCount(in databaseID: DatabaseID) throws -> Int {
        try withSnapshotReader(databaseID, readTime: nil, reading: "The documents of \(databaseID)") { reader in
            let prefix = StorageKeys.databasePrefix(databaseID).bytes
            var options = reader.options
            options.fillCache = false
            let cursor = try reader.database.makeCursor(options: options)
            // A version's key is its document's versions prefix (the path, ended by `00 00`, so
            // no other document's keys start with it) and 8 bytes of version.
            var document: [UInt8] = []
            var count = 0
            cursor.seek(to: prefix)
            while cursor.isValid, cursor.keyHasPrefix(prefix) {
                if document.isEmpty || !cursor.keyHasPrefix(document) {
                    document = cursor.withKey { Array($0.dropLast(8)) }
                    // The snapshot holds no version newer than the one it reflects.
                    if cursor.withValue(StoredVersion.isLive) { count += 1 }
                }
                cursor.next()
            }
            try cursor.checkError()
            return count
        }
    }
}
