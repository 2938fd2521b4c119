package import DocumentModel
import QueryEngine

/// Every LevelDB key Hearth writes, in one place.
///
/// A key is a one-byte table tag followed by `OrderedKey` components (order-preserving and
/// self-delimiting; see `OrderedKey`). Components named *string* are escaped strings ending in
/// `00 01`; *path* is the segments, then `00 00`, each segment a string except a numeric
/// document id (`__id<int64>__`), which is `00 02` and its 8-byte integer so that it sorts
/// first, by value (format 4); *version* is a commit time in microseconds since the epoch as 8 bytes.
///
/// | tag | table | key | value |
/// |---|---|---|---|
/// | `01` | metadata | `01`, name (string) | see `MetadataKey` |
/// | `02` | documents | `02`, project, database (strings), document path, version descending | `StoredVersion` |
/// | `03` | expiry queue | `03`, expiry version ascending, then the full documents-table key | empty |
/// | `04` | single-field index | `04`, collection group id (4 bytes), field path, entry kind, value, document path | empty |
/// | `05` | index groups | `05`, project, database, collection group (strings) | the group's id, 4 bytes big-endian |
///
/// **Documents** are multi-version: each commit that changes a document adds a key with its
/// commit version, newest first, so a read at time `T` seeks to `prefix + descending(T)` and
/// takes the first key (the newest version at or before `T`). A delete writes a tombstone.
/// Because a path ends in `00 00`, which sorts below every segment, all versions of a document
/// come before the documents of its subcollections, and a collection's documents are one prefix
/// scan (`02`, project, database, collection path segments).
///
/// **Expiry queue**: when a commit at version `V` supersedes a version (or writes a tombstone),
/// it enqueues that version's key under `V`. Once `V` is older than the retention window no read
/// can see the superseded version any more, and garbage collection deletes both keys. The
/// newest live version of a document is never enqueued, so it is never collected.
///
/// **Single-field index**: one key per indexed value of the *current* version of every live
/// document, written in the commit's batch (see `IndexEntries`). The *collection group id*
/// stands for a project, database and collection group (see `IndexGroupCatalog`): ids are
/// assigned from 1 as groups are first indexed, stored in the index-groups table in the batch of
/// the first entries under them, and never reused, so each group's entries are one contiguous
/// prefix and a key carries 4 bytes instead of the three names. The *field path* is the field
/// names as strings, then `00 00`; the *entry kind* is one byte (`IndexKind`): `01` value (the
/// field's whole value, for every field, every map and every value inside a map, at its path),
/// `02` array element (each distinct element of an array field, for `array-contains`). There
/// is no entry per document (formats 2 to 4 had one, kind `00`): scans of a collection in name
/// order read the documents table. The *value* is `OrderedKey.appendValue`, so within one field the keys
/// order like Firestore orders values, then by document name: equality, `in`, range and
/// order-by scans are key ranges, read forwards or backwards, and counting reads keys only.
/// Queries at a past read time do not use the index (it holds only the current version).
/// The query engine reads index and documents in one LevelDB snapshot taken between commits
/// (see `DocumentStore.versionedSnapshot()`), so both reflect the same commit version.
///
/// **Last commit**: the metadata key `last-commit` is not written by every commit (it would be
/// one more entry in every batch). It holds a *reservation*: a version at least as late as every
/// commit, written in the batch of the commit that passes the previous reservation (set a second
/// ahead of it), and set to the exact last version when the store closes. On open the commit
/// clock starts after it, so versions keep increasing across restarts, crashes included.
package enum StorageKeys {
    /// Table tags.
    package enum Table: UInt8 {
        case metadata = 0x01
        case documents = 0x02
        case expiry = 0x03
        case index = 0x04
        case indexGroups = 0x05
    }

    /// Names in the metadata table.
    package enum MetadataKey: String {
        /// The storage format version, 8 bytes big-endian. Absent only in a new, empty store.
        case formatVersion = "format"
        /// A version at least as late as every commit (exact after a clean close), 8 bytes as
        /// `OrderedKey.appendInt64`.
        case lastCommit = "last-commit"
        /// A bulk load in progress: its database and commit version (see `BulkLoadMarker`).
        case bulkLoad = "bulk-load"
    }

    /// The key of a metadata entry.
    package static func metadata(_ name: MetadataKey) -> [UInt8] {
        var key = OrderedKey()
        key.appendByte(Table.metadata.rawValue)
        key.appendString(name.rawValue)
        return key.bytes
    }

    /// The key of the last commit version's reservation (`metadata(.lastCommit)`).
    static let lastCommitKey = metadata(.lastCommit)

    /// The prefix of every key of one database's documents table.
    package static func databasePrefix(_ database: DatabaseID) -> OrderedKey {
        var key = OrderedKey(capacity: 96)
        key.appendByte(Table.documents.rawValue)
        key.appendString(database.project)
        key.appendString(database.database)
        return key
    }

    /// The prefix of every document below `path` (a collection or a document), excluding the
    /// document at `path` itself only if `path` is a collection.
    package static func subtreePrefix(_ database: DatabaseID, _ path: ResourcePath) -> [UInt8] {
        var key = databasePrefix(database)
        key.appendPathSegments(path)
        return key.bytes
    }

    /// The prefix of every version of one document.
    package static func versionsPrefix(_ name: DocumentName) -> [UInt8] {
        var key = databasePrefix(name.databaseID)
        key.appendPath(name.path)
        return key.bytes
    }

    /// The key of one version of a document.
    package static func version(_ name: DocumentName, _ version: Int64) -> [UInt8] {
        // `versionsPrefix(name) + descending(version)`, built in one buffer.
        var key = databasePrefix(name.databaseID)
        key.appendPath(name.path)
        key.appendDescendingInt64(version)
        return key.bytes
    }

    /// A version as 8 bytes that sort newest first.
    package static func descending(_ version: Int64) -> [UInt8] {
        var key = OrderedKey(capacity: 8)
        key.appendDescendingInt64(version)
        return key.bytes
    }

    /// The expiry-queue entry for the documents-table key `documentKey`, due at `version`.
    package static func expiry(at version: Int64, documentKey: [UInt8]) -> [UInt8] {
        var key = OrderedKey(capacity: 9 + documentKey.count)
        key.appendByte(Table.expiry.rawValue)
        key.appendInt64(version)
        return key.bytes + documentKey
    }

    /// The first expiry-queue key after every entry due at or before `version`.
    package static func expiryEnd(after version: Int64) -> [UInt8] {
        var key = OrderedKey(capacity: 9)
        key.appendByte(Table.expiry.rawValue)
        key.appendInt64(version + 1)
        return key.bytes
    }

    /// The prefix of the whole expiry queue.
    package static let expiryPrefix: [UInt8] = [Table.expiry.rawValue]

    /// The name in a documents-table key known to begin with `databasePrefix(database)`, which
    /// is `prefixLength` bytes long: only the path is decoded (a scan's keys share the prefix).
    package static func decodeVersionKey(
        _ bytes: [UInt8], in database: DatabaseID, prefixLength: Int
    ) throws -> DocumentName {
        var reader = OrderedKeyReader(bytes, offset: prefixLength)
        let path = try reader.readPath()
        guard let name = try? DocumentName(database, path) else {
            throw FirestoreError(.dataLoss, "Stored key names no valid document: \(path)")
        }
        return name
    }

    /// Decodes a documents-table key into the document's name and version.
    package static func decodeVersionKey(_ bytes: [UInt8]) throws -> (name: DocumentName, version: Int64) {
        var reader = OrderedKeyReader(bytes)
        guard try reader.readByte() == Table.documents.rawValue else {
            throw FirestoreError(.dataLoss, "Stored key is not in the documents table")
        }
        let project = try reader.readString()
        let database = try reader.readString()
        let path = try reader.readPath()
        let version = try reader.readDescendingInt64()
        guard let databaseID = try? DatabaseID(project: project, database: database),
            let name = try? DocumentName(databaseID, path)
        else { throw FirestoreError(.dataLoss, "Stored key names no valid document: \(path)") }
        return (name, version)
    }
}
