package import DocumentModel
import QueryEngine
import LevelDB

/// Keys of the single-field index table (`04`) and of the index-groups table (`05`); the layout
/// is documented in `StorageKeys`: `04 | group id | field path | kind | value | document path`,
/// and `05 | project | database | collection group` holding the group id.
extension StorageKeys {
    /// The key of a collection group's entry in the index-groups table.
    static func indexGroup(_ group: IndexGroup) -> [UInt8] {
        var key = OrderedKey(capacity: 48)
        key.appendByte(Table.indexGroups.rawValue)
        key.appendString(group.database.project)
        key.appendString(group.database.database)
        key.appendString(group.collectionID)
        return key.bytes
    }

    /// A group id as stored: 4 bytes, big-endian.
    static func encodeIndexGroupID(_ id: UInt32) -> [UInt8] {
        withUnsafeBytes(of: id.bigEndian) { Array($0) }
    }

    /// A stored group id, or `nil` if `bytes` is not one.
    static func decodeIndexGroupID(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count == 4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The prefix of every index entry of one collection group: `04` and the group's id (as
    /// `encodeIndexGroupID`).
    static func indexGroupPrefix(_ id: UInt32) -> OrderedKey {
        var key = OrderedKey(capacity: 128)
        appendIndexGroupPrefix(id, to: &key)
        return key
    }

    /// Appends `indexGroupPrefix(id)`, byte by byte: this runs for every document a commit indexes.
    static func appendIndexGroupPrefix(_ id: UInt32, to key: inout some ByteSink) {
        key.appendByte(Table.index.rawValue)
        key.appendByte(UInt8(truncatingIfNeeded: id >> 24))
        key.appendByte(UInt8(truncatingIfNeeded: id >> 16))
        key.appendByte(UInt8(truncatingIfNeeded: id >> 8))
        key.appendByte(UInt8(truncatingIfNeeded: id))
    }

    /// Appends a field path component: its names as strings, then `00 00`.
    static func appendFieldPath(_ field: FieldPath, to key: inout OrderedKey) {
        for name in field.segments { key.appendString(name) }
        key.appendEnd()
    }

    /// The prefix of every entry of one kind for one field of the collection group whose index
    /// entries start with `groupPrefix`: the value and the document path follow it.
    static func indexFieldPrefix(groupPrefix: [UInt8], field: FieldPath, kind: IndexKind) -> [UInt8] {
        var key = OrderedKey(capacity: groupPrefix.count + 32)
        key.appendEncoded(groupPrefix)
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

    /// The sorted, distinct index keys a live document has when its collection group's id is
    /// `groupID` (for tools and benchmarks; a new store gives the first group it indexes id 1).
    package static func indexKeys(of document: Document, groupID: UInt32) -> [[UInt8]] {
        IndexEntries.keys(of: document, groupID: groupID)
    }
}
