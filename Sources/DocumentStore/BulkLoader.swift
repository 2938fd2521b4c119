package import DocumentModel
import Foundation
import LevelDB
import QueryEngine

/// Writes the documents of one bulk load (`DocumentStore.bulkLoad`): each document's new
/// version at the load's commit version, with its expiry-queue and index changes, into write
/// batches of about `batchBytes` that are written as they fill but not published.
///
/// Per document it does what a commit of a `set` does, without a commit's per-write machinery:
/// the fields are checked as a commit checks them, the current version is read only when the
/// presence filter says the document may exist, and the document and index keys are built in
/// reused buffers straight into the batch. The index keys of new documents are held back and
/// sorted (`IndexKeySorter`), and written in key order when the documents are all added
/// (`finish()`): LevelDB then appends them instead of compacting them level after level.
package struct BulkLoader {
    private let store: DocumentStore
    /// The database documents go into.
    package let database: DatabaseID
    /// The load's commit version.
    let version: Int64
    /// The index's collection groups, moved out of the commit state for the load.
    var indexGroups: IndexGroupCatalog
    /// The batch being filled.
    private let batch = WriteBatch()
    /// Documents added so far.
    package private(set) var count = 0

    private let batchBytes: Int
    private let databasePrefix: [UInt8]
    private let versionSuffix: [UInt8]
    /// The key prefixes of the documents in `batch`, to find a document added twice.
    private var batchPrefixes: Set<[UInt8]> = []
    /// Reads the current versions; made again after each batch, so it sees the batches written.
    private var cursor: LazyCursor
    private let documentScratch = KeyScratch(capacity: 1024)
    private let keyScratch = KeyScratch()
    /// What the batch changes, kept only while transactions hold locks (to abort them).
    private var changes: [DocumentChangeRecord] = []
    /// The index keys of the documents this load created, not yet written.
    private let createdIndexKeys: IndexKeySorter

    init(
        store: DocumentStore, database: DatabaseID, version: Int64, indexGroups: IndexGroupCatalog, batchBytes: Int,
        sortBytes: Int
    ) {
        self.store = store
        self.database = database
        self.version = version
        self.indexGroups = indexGroups
        self.batchBytes = batchBytes
        databasePrefix = StorageKeys.databasePrefix(database).bytes
        versionSuffix = StorageKeys.descending(version)
        cursor = LazyCursor(store.database)
        createdIndexKeys = IndexKeySorter(folder: store.path, memoryBytes: sortBytes)
    }

    /// Adds the document `name` (in the load's database) with `fields`, as a `set` would:
    /// a document with the same name is replaced (one with the same fields is left as it is).
    ///
    /// - Throws: `FirestoreError`: `.invalidArgument` for fields or a size a commit refuses
    ///   (nothing of the document is written), others from the store.
    package mutating func add(_ name: DocumentName, fields: MapValue) throws {
        guard name.databaseID == database else {
            throw FirestoreError.invalidArgument(
                "\(name.resourceName) is not in \(database.resourceName), the database being loaded")
        }
        var fields = fields
        var validator = FieldValueValidator()
        try validator.validate(fields)
        if validator.needsTimestampTruncation { fields = fields.truncatingTimestamps }
        try WriteApplication.validateSize(of: fields, name: name)

        var prefixKey = OrderedKey(capacity: databasePrefix.count + 64)
        databasePrefix.withUnsafeBytes { prefixKey.appendRaw($0) }
        prefixKey.appendPath(name.path)
        let prefix = prefixKey.bytes
        let current = try currentVersion(of: name, prefix: prefix)
        let before = current?.stored.document
        let ours = current?.version == version
        if let before, before.fields.count == fields.count, Value.map(before.fields).isIdentical(to: .map(fields)) {
            count += 1
            return
        }
        let document = Document(
            name: name, fields: fields, createTime: before?.createTime ?? commitTime, updateTime: commitTime)
        if let current, !ours, before != nil {
            batch.put(
                StorageKeys.expiry(at: version, documentKey: prefix + StorageKeys.descending(current.version)), [])
        }
        if ours, before == nil {
            // This load deleted it (a replacing load): the tombstone's expiry entry goes with it.
            batch.delete(StorageKeys.expiry(at: version, documentKey: prefix + versionSuffix))
        }
        documentScratch.truncate(to: 0)
        DocumentCodec.encode(document, into: documentScratch)
        keyScratch.truncate(to: 0)
        prefix.withUnsafeBytes { keyScratch.appendRaw($0) }
        versionSuffix.withUnsafeBytes { keyScratch.appendRaw($0) }
        keyScratch.withBytes { key in documentScratch.withBytes { batch.put(key, $0) } }
        let path = prefix[databasePrefix.count...]
        if let before {
            // Added earlier in this load: its held-back keys go first, so the update can delete them.
            if ours { try writeCreatedIndexKeys() }
            IndexEntries.update(
                batch, before: before, after: document, path: path, groups: &indexGroups, scratch: keyScratch)
        } else {
            try Self.sortingIndexKeys(in: store.path) {
                try IndexEntries.forEachKey(
                    ofCreated: document, path: path, groups: &indexGroups, recordingIn: batch, scratch: keyScratch
                ) { try createdIndexKeys.add($0) }
            }
        }
        if current == nil { store.presence.insert(keyPrefixes: CollectionOfOne(prefix)) }
        if store.transactions.mayConflict {
            changes.append(DocumentChangeRecord(name: name, before: before, after: document))
        }
        batchPrefixes.insert(prefix)
        count += 1
        if batch.byteCount >= batchBytes { try flush() }
    }

    private var commitTime: Timestamp { Timestamp(microsecondsSinceEpoch: version) }

    /// Deletes every live document of the database at the load's version (a replacing load,
    /// before its documents are added).
    mutating func deleteEveryDocument() throws {
        try DocumentStore.mapLevelDBErrors { try tombstoneEveryDocument() }
    }

    private mutating func tombstoneEveryDocument() throws {
        let scan = try store.database.makeCursor()
        scan.seek(to: databasePrefix)
        while scan.isValid, scan.keyHasPrefix(databasePrefix) {
            let key = scan.key
            let (name, _) = try StorageKeys.decodeVersionKey(key)
            let prefix = Array(key.dropLast(8))
            if let document = try scan.withValue({ try StoredVersion.decode($0, name: name) }).document {
                let tombstoneKey = prefix + versionSuffix
                batch.put(StorageKeys.expiry(at: version, documentKey: key), [])
                batch.put(tombstoneKey, StoredVersion.tombstoneBytes)
                batch.put(StorageKeys.expiry(at: version, documentKey: tombstoneKey), [])
                IndexEntries.update(
                    batch, before: document, after: nil, path: prefix[databasePrefix.count...], groups: &indexGroups,
                    scratch: keyScratch)
                if store.transactions.mayConflict {
                    changes.append(DocumentChangeRecord(name: name, before: document, after: nil))
                }
                if batch.byteCount >= batchBytes { try flush() }
            }
            scan.seek(to: KeyRange.successor(ofPrefix: prefix) ?? [0xFF])
        }
        try scan.checkError()
        // Written now, so that reads of the documents added next see the deletions.
        try flush()
    }

    /// The newest stored version of the document whose versions start with `prefix`, and its
    /// version number; `nil` if it has none (the presence filter answers most of these).
    private mutating func currentVersion(
        of name: DocumentName, prefix: [UInt8]
    ) throws -> (version: Int64, stored: StoredVersion)? {
        guard prefix.withUnsafeBytes({ store.presence.mayContain(keyPrefix: $0) }) else { return nil }
        // Added earlier in this batch: write the batch, so that the read below sees it.
        if batchPrefixes.contains(prefix) { try flush() }
        return try store.mapLevelDBErrors(reading: "Document '\(name.path)'") {
            try readNewestVersion(of: name, prefix: prefix)
        }
    }

    private func readNewestVersion(of name: DocumentName, prefix: [UInt8]) throws -> (
        version: Int64, stored: StoredVersion
    )? {
        let cursor = try cursor.cursor()
        cursor.seek(to: prefix)
        guard cursor.isValid, cursor.keyHasPrefix(prefix) else {
            try cursor.checkError()
            return nil
        }
        var reader = OrderedKeyReader(cursor.key, offset: prefix.count)
        let version = try reader.readDescendingInt64()
        return (version, try cursor.withValue { try StoredVersion.decode($0, name: name) })
    }

    /// Writes what is not written yet: the batch, then the held-back index keys in key order
    /// (none of it published).
    mutating func finish() throws {
        try writeCreatedIndexKeys()
    }

    /// Writes the batch and the index keys held back so far, in key order, in batches.
    private mutating func writeCreatedIndexKeys() throws {
        try flush()
        guard !createdIndexKeys.isEmpty else { return }
        try Self.sortingIndexKeys(in: store.path) {
            try createdIndexKeys.drain { key in
                batch.put(key, UnsafeRawBufferPointer(start: nil, count: 0))
                if batch.byteCount >= batchBytes { try flush() }
            }
        }
        try flush()
    }

    /// Runs `body`, reporting a failure of the sort's temporary file (in the data folder `path`)
    /// as a `FirestoreError`: RESOURCE_EXHAUSTED when the disk is full.
    private static func sortingIndexKeys<R>(in path: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as FirestoreError {
            throw error
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            guard (error as? CocoaError)?.code == .fileWriteOutOfSpace || underlying?.code == Int(ENOSPC) else {
                throw FirestoreError(
                    .internal,
                    "A bulk load could not sort its index keys in a temporary file in data folder '\(path)': "
                        + error.localizedDescription)
            }
            throw FirestoreError(
                .resourceExhausted,
                "The disk holding data folder '\(path)' (the file system mounted at '\(DiskSpace(path: path).mountPoint)') "
                    + "is full: a bulk load could not write its sorted index keys to a temporary file there, and "
                    + "nothing of the load is kept")
        }
    }

    /// Writes the batch (not published: readers see it only once the load's last batch is
    /// written) and starts the next one.
    mutating func flush() throws {
        abortLockHolders()
        guard batch.count > 0 else { return }
        do {
            try store.database.write(batch, sync: store.configuration.syncCommits)
        } catch let error as LevelDBError {
            throw error.code == .ioError ? store.writeError(error) : DocumentStore.storeError(error)
        }
        indexGroups.keepUnwritten()
        batch.clear()
        batchPrefixes.removeAll(keepingCapacity: true)
        cursor = LazyCursor(store.database)
    }

    /// Aborts the transactions holding locks on what the batch changes, as a commit outside any
    /// transaction does (`DocumentStore.commit(_:)`).
    private mutating func abortLockHolders() {
        if !changes.isEmpty {
            store.transactions.abortHolders(of: changes)
            store.transactions.abortRanges(covering: changes, except: nil)
            changes.removeAll()
        }
    }
}
