package import DocumentModel
package import QueryEngine

/// The local cache's field index (#14): for each cached document, one entry per field at every
/// depth of its maps (the map itself and each value inside it, at its path, as `IndexKind.value`)
/// and one per distinct element of each array (`IndexKind.element`), as the store's automatic
/// single-field indexes (`DocumentStore`'s `IndexEntries`). A vector is a leaf. Both local
/// stores keep it in step with their remote entries (known-missing entries have none), so a
/// query over the cache reads the documents whose indexed values it accepts (`CacheIndexScan`)
/// instead of its whole collection.
///
/// An entry's key: the **group** (`05`, project, database and collection id as `OrderedKey`
/// strings, the field path's names as strings then `00 00`, the kind byte) then the **suffix**
/// (the value's `OrderedKey` encoding, then the document's path as `OrderedKey.appendPath`).
/// Within a group, entries sort by value, then by document path, which is the order of
/// `__name__`: so a scan of one value's entries lists its documents in name order, and a scan of
/// a range lists them in the query order `field, __name__`. Groups are per collection id, so a
/// collection-group query reads the same entries as a query of one of its collections.
///
/// `PersistentLocalStore` stores each entry as a LevelDB key (`group + suffix`) whose value is
/// the length of the document path at its end (4 bytes big-endian); `MemoryLocalStore` keeps
/// per group the sorted suffixes (`MemoryFieldIndex`). Index entries do not count toward the
/// cache's size estimate (see `LocalStore`).
package enum CacheIndex {
    /// The table tag of index entries in the persistent cache (`LocalStoreLayout`).
    package static let tag: UInt8 = 0x05

    /// One index entry of a document.
    package struct Entry: Hashable, Sendable {
        /// The group: tag, database, collection id, field path and kind.
        package var group: [UInt8]
        /// The value's encoding, then the document's encoded path.
        package var suffix: [UInt8]

        /// The whole key.
        package var key: [UInt8] { group + suffix }
    }

    /// The prefix of the entries of every field of one collection id.
    private static func collectionPrefix(database: DatabaseID, collectionID: String) -> OrderedKey {
        var key = OrderedKey(capacity: 64)
        key.appendByte(tag)
        key.appendString(database.project)
        key.appendString(database.database)
        key.appendString(collectionID)
        return key
    }

    /// The group of the entries of `kind` of `field` in the collections named `collectionID`.
    package static func group(database: DatabaseID, collectionID: String, field: DocumentModel.FieldPath, kind: IndexKind) -> [UInt8] {
        var key = collectionPrefix(database: database, collectionID: collectionID)
        for name in field.segments { key.appendString(name) }
        key.appendEnd()
        key.appendByte(kind.rawValue)
        return key.bytes
    }

    /// The encoded path that ends every index entry of the document at `path`.
    package static func encodedPath(_ path: ResourcePath) -> [UInt8] {
        var key = OrderedKey(capacity: 64)
        key.appendPath(path)
        return key.bytes
    }

    /// The distinct index entries of `document` (none for `nil`).
    package static func entries(of document: Document?) -> Set<Entry> {
        guard let document else { return [] }
        let segments = document.name.path.segments
        let prefix = collectionPrefix(database: document.name.databaseID, collectionID: segments[segments.count - 2])
        var entries = Set<Entry>()
        addEntries(of: document.fields, in: prefix, path: encodedPath(document.name.path), to: &entries)
        return entries
    }

    /// Adds the entries of every field of `map`; `prefix` holds the collection prefix and the
    /// names of the enclosing maps.
    private static func addEntries(of map: MapValue, in prefix: OrderedKey, path: [UInt8], to entries: inout Set<Entry>) {
        for entry in map.entries {
            let value = entry.value
            var field = prefix
            field.appendString(entry.key)
            var group = field
            group.appendEnd()
            var valueGroup = group
            valueGroup.appendByte(IndexKind.value.rawValue)
            entries.insert(Entry(group: valueGroup.bytes, suffix: OrderedKey.encoding(of: value) + path))
            switch value {
            case .array(let elements):
                group.appendByte(IndexKind.element.rawValue)
                for element in elements {
                    entries.insert(Entry(group: group.bytes, suffix: OrderedKey.encoding(of: element) + path))
                }
            case .map(let inner) where !inner.isVector:
                addEntries(of: inner, in: field, path: path, to: &entries)
            default:
                break
            }
        }
    }

    /// The entries to delete and to add when a cached document changes from `old` to `new`.
    package static func changes(from old: Document?, to new: Document?) -> (removed: Set<Entry>, added: Set<Entry>) {
        let before = entries(of: old)
        let after = entries(of: new)
        return (before.subtracting(after), after.subtracting(before))
    }
}
