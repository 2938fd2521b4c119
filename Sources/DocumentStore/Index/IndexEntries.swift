import DocumentModel
import LevelDB

/// The single-field index entries of a document, and the changes a commit makes to them.
///
/// A live document has one `document` entry, one `value` entry per field at every depth of
/// its maps (the map itself and each value inside it, at its path), and one `element` entry
/// per distinct element of each array (at the array's path). Only the current version of a
/// document is indexed: a commit deletes the entries of the version it replaces and puts those
/// of the new one, skipping entries both versions share.
enum IndexEntries {
    /// The sorted, distinct index keys of `document`.
    static func keys(of document: Document) -> [[UInt8]] {
        let name = document.name
        let group = StorageKeys.indexGroupPrefix(name.databaseID, group: name.collectionID)
        let path = StorageKeys.encodedPath(name.path)
        var keys: [[UInt8]] = []
        keys.reserveCapacity(document.fields.count * 2 + 1)
        var documentEntry = group
        StorageKeys.appendFieldPath(nil, to: &documentEntry)
        documentEntry.appendByte(IndexKind.document.rawValue)
        keys.append(documentEntry.bytes + path)
        var fieldPrefix = group
        appendEntries(of: document.fields, prefix: &fieldPrefix, path: path, into: &keys)
        keys.sort { $0.lexicographicallyPrecedes($1) }
        return dropDuplicates(keys)
    }

    /// Adds the index changes from `before` to `after` (either `nil` when the document does not
    /// exist) to `batch`.
    static func update(_ batch: WriteBatch, before: Document?, after: Document?) {
        let old = before.map(keys(of:)) ?? []
        let new = after.map(keys(of:)) ?? []
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < old.count || newIndex < new.count {
            if newIndex == new.count || (oldIndex < old.count && old[oldIndex].lexicographicallyPrecedes(new[newIndex])) {
                batch.delete(old[oldIndex])
                oldIndex += 1
            } else if oldIndex == old.count || new[newIndex].lexicographicallyPrecedes(old[oldIndex]) {
                batch.put(new[newIndex], [])
                newIndex += 1
            } else {
                oldIndex += 1
                newIndex += 1
            }
        }
    }

    /// Appends the entries of every field of `map`, whose path so far is in `prefix` (the
    /// group prefix and the names of the enclosing maps, without the path's end marker).
    private static func appendEntries(
        of map: MapValue, prefix: inout OrderedKey, path: [UInt8], into keys: inout [[UInt8]]
    ) {
        for entry in map {
            var fieldPrefix = prefix
            fieldPrefix.appendString(entry.key)
            var valueKey = fieldPrefix
            valueKey.appendEnd()
            var elementKey = valueKey
            valueKey.appendByte(IndexKind.value.rawValue)
            valueKey.appendValue(entry.value)
            keys.append(valueKey.bytes + path)
            switch entry.value {
            case .array(let elements):
                elementKey.appendByte(IndexKind.element.rawValue)
                for element in elements {
                    var key = elementKey
                    key.appendValue(element)
                    keys.append(key.bytes + path)
                }
            case .map(let inner):
                appendEntries(of: inner, prefix: &fieldPrefix, path: path, into: &keys)
            default:
                break
            }
        }
    }

    private static func dropDuplicates(_ sorted: [[UInt8]]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        result.reserveCapacity(sorted.count)
        for key in sorted where result.last != key { result.append(key) }
        return result
    }
}
