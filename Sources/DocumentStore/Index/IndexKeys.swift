import DocumentModel
import LevelDB

/// The kind of an index entry: the byte after the field path in an index key.
enum IndexKind: UInt8 {
    /// One entry per document, with an empty field path and no value: a collection group's
    /// documents in name order.
    case document = 0x00
    /// The field's whole value (also for maps, and for each value inside a map at its path).
    case value = 0x01
    /// One distinct element of an array field, for `array-contains` and `array-contains-any`.
    case element = 0x02
}

/// Keys of the single-field index table (`04`); the layout is documented in `StorageKeys`:
/// `04 | project | database | collection group | field path | kind | value | document path`.
extension StorageKeys {
    /// The prefix of one collection group's index entries in a database.
    static func indexGroupPrefix(_ database: DatabaseID, group: String) -> OrderedKey {
        var key = OrderedKey(capacity: 96)
        key.appendByte(Table.index.rawValue)
        key.appendString(database.project)
        key.appendString(database.database)
        key.appendString(group)
        return key
    }

    /// Appends a field path component: its names as strings, then `00 00`. The document
    /// entries use the empty path (`nil`).
    static func appendFieldPath(_ field: FieldPath?, to key: inout OrderedKey) {
        for name in field?.segments ?? [] { key.appendString(name) }
        key.appendEnd()
    }

    /// The prefix of every entry of one kind for one field of a collection group: the value
    /// and the document path follow it.
    static func indexFieldPrefix(_ database: DatabaseID, group: String, field: FieldPath?, kind: IndexKind) -> [UInt8] {
        var key = indexGroupPrefix(database, group: group)
        appendFieldPath(field, to: &key)
        key.appendByte(kind.rawValue)
        return key.bytes
    }

    /// The encoded path of a document, as it ends an index key (segments, then `00 00`).
    static func encodedPath(_ path: ResourcePath) -> [UInt8] {
        var key = OrderedKey(capacity: 64)
        key.appendPath(path)
        return key.bytes
    }

    /// The sorted, distinct index keys a live document has (for tools and benchmarks).
    public static func indexKeys(of document: Document) -> [[UInt8]] {
        IndexEntries.keys(of: document)
    }
}
