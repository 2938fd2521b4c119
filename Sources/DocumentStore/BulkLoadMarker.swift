import DocumentModel
import LevelDB

/// The record of a bulk load in progress (`DocumentStore.bulkLoad`), and how one that did not
/// finish is undone.
///
/// A bulk load writes every document at one commit version `V`, in many LevelDB batches, but
/// publishes `V` (makes it readable) only with its last batch. Before its first batch it stores
/// this marker (the database and `V`, under the metadata key `bulk-load`); the last batch
/// deletes it. A marker found when the store opens, or when writes resume after a full disk,
/// is a load that failed or was killed (SIGKILL, a crash): `rollBackInterrupted(in:)` deletes
/// every document version written at `V` in that database, puts back the index entries of the
/// versions they hid, deletes the expiry-queue entries due at `V`, and then the marker. Each
/// document is undone in one batch with its index entries, so a rollback cut short is finished
/// by the next one.
struct BulkLoadMarker: Equatable {
    /// The database being loaded.
    let database: DatabaseID
    /// The load's commit version.
    let version: Int64

    static let key = StorageKeys.metadata(.bulkLoad)

    /// The marker's stored value: project and database (strings), then the version.
    var encoded: [UInt8] {
        var value = OrderedKey(capacity: 64)
        value.appendString(database.project)
        value.appendString(database.database)
        value.appendInt64(version)
        return value.bytes
    }

    /// The marker stored in `database`, if a load did not finish.
    static func stored(in database: Database) throws -> BulkLoadMarker? {
        guard let bytes = try database.get(key) else { return nil }
        var reader = OrderedKeyReader(bytes)
        let project = try reader.readString()
        let name = try reader.readString()
        let version = try reader.readInt64()
        guard let databaseID = try? DatabaseID(project: project, database: name) else {
            throw FirestoreError(.dataLoss, "Corrupt bulk-load marker for \(project)/\(name)")
        }
        return BulkLoadMarker(database: databaseID, version: version)
    }

    /// Undoes the load a stored marker records, if any (see the type's description). Called
    /// while the store opens and after writes resume, before any commit.
    ///
    /// - Throws: `FirestoreError` (`.dataLoss` for damaged storage); the marker then stays, and
    ///   the next open tries again.
    static func rollBackInterrupted(in database: Database) throws {
        try DocumentStore.mapLevelDBErrors {
            guard let marker = try stored(in: database) else { return }
            try marker.rollBack(in: database)
        }
    }

    /// Deletes what the load wrote at `version` (see the type's description), then the marker.
    func rollBack(in database: Database) throws {
        var groups = try IndexGroupCatalog.load(from: database)
        let scratch = KeyScratch()
        let batch = WriteBatch()
        let prefix = StorageKeys.databasePrefix(self.database).bytes
        let prefixCount = prefix.count
        let cursor = try database.makeCursor()
        cursor.seek(to: prefix)
        while cursor.isValid, cursor.keyHasPrefix(prefix) {
            let key = cursor.key
            let (name, newest) = try StorageKeys.decodeVersionKey(key)
            let versions = Array(key.dropLast(8))
            if newest == version {
                let loaded = try cursor.withValue { try StoredVersion.decode($0, name: name) }
                batch.delete(key)
                cursor.next()
                var hidden: Document?
                if cursor.isValid, cursor.keyHasPrefix(versions) {
                    hidden = try cursor.withValue { try StoredVersion.decode($0, name: name) }.document
                }
                IndexEntries.update(
                    batch, before: loaded.document, after: hidden, path: versions[prefixCount...], groups: &groups,
                    scratch: scratch)
                if batch.byteCount >= 1 << 20 {
                    try database.write(batch)
                    batch.clear()
                }
            }
            cursor.seek(to: KeyRange.successor(ofPrefix: versions) ?? [0xFF])
        }
        try cursor.checkError()
        let due = StorageKeys.expiry(at: version, documentKey: [])
        try database.forEachEntry(in: KeyRange(from: due, to: StorageKeys.expiryEnd(after: version))) { key, _ in
            batch.delete(key)
            if batch.byteCount >= 1 << 20 {
                try database.write(batch)
                batch.clear()
            }
        }
        batch.delete(BulkLoadMarker.key)
        try database.write(batch, sync: true)
    }
}
