import DocumentModel
import LevelDB

/// One consistent view of the store for a query: a LevelDB snapshot, the commit version its
/// index reflects, and the version documents are read at.
///
/// The index holds only the current version of each document, so the index and the documents
/// must come from one moment: the snapshot is taken between commits and knows the version it
/// reflects (`DocumentStore.versionedSnapshot()`). A read at that version may use the index; a
/// read at an older version scans documents (`isPast`).
final class SnapshotReader {
    let database: Database
    let databaseID: DatabaseID
    let options: ReadOptions
    /// The version the snapshot's documents and index reflect.
    let snapshotVersion: Int64
    /// The version documents are read at.
    let version: Int64
    private let documentsPrefix: [UInt8]
    private var documentCursor: Cursor?
    /// The index key prefixes of the collection groups looked up so far (`nil`: not indexed).
    private var indexGroupPrefixes: [String: [UInt8]?] = [:]

    /// A view of `snapshot`, which reflects the commits up to `snapshotVersion`, at
    /// `requestedVersion`, or at `snapshotVersion` if `nil`.
    init(
        _ database: Database, databaseID: DatabaseID, snapshot: Snapshot, snapshotVersion: Int64,
        requestedVersion: Int64?
    ) {
        self.database = database
        self.databaseID = databaseID
        options = ReadOptions(snapshot: snapshot)
        self.snapshotVersion = snapshotVersion
        version = min(requestedVersion ?? snapshotVersion, snapshotVersion)
        documentsPrefix = StorageKeys.databasePrefix(databaseID).bytes
    }

    /// Whether documents are read at a version older than the index.
    var isPast: Bool { version < snapshotVersion }

    /// The read time to report.
    var readTime: Timestamp { Timestamp(microsecondsSinceEpoch: version) }

    /// A new cursor on the snapshot.
    func makeCursor() throws -> Cursor {
        try database.makeCursor(options: options)
    }

    /// The prefix of every index entry of the collection group `collectionID` in this
    /// snapshot, or `nil` if the snapshot holds no entry of that group (it has no id yet). The
    /// id is read from the snapshot itself, so it always matches the entries the snapshot holds.
    func indexGroupPrefix(_ collectionID: String) throws -> [UInt8]? {
        if let known = indexGroupPrefixes[collectionID] { return known }
        let key = StorageKeys.indexGroup(IndexGroup(database: databaseID, collectionID: collectionID))
        let prefix = try database.get(key, options: options).map { stored in
            guard let id = StorageKeys.decodeIndexGroupID(stored) else {
                throw FirestoreError(.dataLoss, "Corrupt index group id of collection group \(collectionID)")
            }
            return StorageKeys.indexGroupPrefix(id).bytes
        }
        indexGroupPrefixes[collectionID] = .some(prefix)
        return prefix
    }

    /// The document whose encoded path is `path`, as of `version`, or `nil`.
    func document(encodedPath path: [UInt8]) throws -> Document? {
        var key = documentsPrefix
        key.append(contentsOf: path)
        let prefixCount = key.count
        var version = OrderedKey(capacity: 8)
        version.appendDescendingInt64(self.version)
        key.append(contentsOf: version.bytes)
        let cursor = try documentCursor ?? makeCursor()
        documentCursor = cursor
        cursor.seek(to: key)
        guard cursor.isValid, cursor.withKey({ found in
            found.count == prefixCount + 8 && key.withUnsafeBytes { found.prefix(prefixCount).elementsEqual($0.prefix(prefixCount)) }
        })
        else {
            try cursor.checkError()
            return nil
        }
        var reader = OrderedKeyReader(path)
        let name = try DocumentName(databaseID, try reader.readPath())
        return try cursor.withValue { try StoredVersion.decode($0, name: name) }.document
    }
}
