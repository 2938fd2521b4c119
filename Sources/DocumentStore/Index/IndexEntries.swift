import DocumentModel
import QueryEngine
import LevelDB

/// The single-field index entries of a document, and the changes a commit makes to them.
///
/// A live document has one `value` entry per field at every depth of its maps (the map itself
/// and each value inside it, at its path), and one `element` entry per distinct element of each
/// array (at the array's path); a document without fields has none (collection scans read the
/// documents table). Only the current version of a
/// document is indexed: a commit deletes the entries of the version it replaces and puts those
/// of the new one, skipping entries both versions share.
///
/// Keys are built in one reusable buffer: a create puts them as they come and a delete deletes
/// them as they come; only an update sorts both versions' keys to write the difference.
enum IndexEntries {
    /// The sorted, distinct index keys of `document`, whose collection group's id is `groupID`.
    static func keys(of document: Document, groupID: UInt32) -> [[UInt8]] {
        keys(of: document, groupID: groupID, path: StorageKeys.encodedPath(document.name.path)[...], in: KeyScratch())
    }

    /// Adds the index changes from `before` to `after` (either `nil` when the document does not
    /// exist) to `batch`; `path` is the document's encoded path (`StorageKeys.encodedPath`), and
    /// the keys are built in `scratch`. The document's collection group gets an id from `groups`
    /// if it has none yet (its catalog entry goes into the same batch).
    static func update(
        _ batch: WriteBatch, before: Document?, after: Document?, path: ArraySlice<UInt8>,
        groups: inout IndexGroupCatalog, scratch: KeyScratch
    ) {
        guard let name = after?.name ?? before?.name else { return }
        let groupID = groupID(of: name, groups: &groups, recordingIn: batch)
        switch (before, after) {
        case (nil, nil):
            return
        case (nil, let created?):
            forEachKey(of: created, groupID: groupID, path: path, in: scratch) { batch.put($0, UnsafeRawBufferPointer(start: nil, count: 0)) }
        case (let deleted?, nil):
            forEachKey(of: deleted, groupID: groupID, path: path, in: scratch) { batch.delete($0) }
        case (let old?, let new?):
            write(
                difference: keys(of: old, groupID: groupID, path: path, in: scratch),
                keys(of: new, groupID: groupID, path: path, in: scratch), to: batch)
        }
    }

    /// Calls `body` with each index key of the new document `created` (what `update` puts for a
    /// create; array elements may repeat), each built in `scratch` and valid only during the call.
    /// The document's collection group gets an id from `groups` if it has none yet (its catalog
    /// entry goes into `batch`).
    static func forEachKey(
        ofCreated created: Document, path: ArraySlice<UInt8>, groups: inout IndexGroupCatalog,
        recordingIn batch: WriteBatch, scratch: KeyScratch, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        let groupID = groupID(of: created.name, groups: &groups, recordingIn: batch)
        try forEachKey(of: created, groupID: groupID, path: path, in: scratch, body)
    }

    /// The id of the collection group of the document `name`, from `groups` (a new group's
    /// catalog entry goes into `batch`).
    private static func groupID(
        of name: DocumentName, groups: inout IndexGroupCatalog, recordingIn batch: WriteBatch
    ) -> UInt32 {
        // The collection id is the path's second-to-last segment (without building the
        // collection's path).
        let segments = name.path.segments
        return groups.id(
            of: IndexGroup(database: name.databaseID, collectionID: segments[segments.count - 2]), recordingIn: batch)
    }

    /// The sorted, distinct index keys of `document`, built in `scratch`.
    private static func keys(
        of document: Document, groupID: UInt32, path: ArraySlice<UInt8>, in scratch: KeyScratch
    ) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        keys.reserveCapacity(document.fields.count * 2 + 1)
        forEachKey(of: document, groupID: groupID, path: path, in: scratch) { keys.append(Array($0)) }
        keys.sort { $0.lexicographicallyPrecedes($1) }
        var distinct: [[UInt8]] = []
        distinct.reserveCapacity(keys.count)
        for key in keys where distinct.last != key { distinct.append(key) }
        return distinct
    }

    /// Deletes the keys only in `old` and puts those only in `new` (both sorted).
    private static func write(difference old: [[UInt8]], _ new: [[UInt8]], to batch: WriteBatch) {
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

    /// Calls `body` with each index key of `document` (array elements may repeat), each built
    /// in `scratch` and valid only during the call.
    private static func forEachKey(
        of document: Document, groupID: UInt32, path: ArraySlice<UInt8>, in scratch: KeyScratch,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        try path.withUnsafeBytes { path in
            var key = scratch
            key.truncate(to: 0)
            StorageKeys.appendIndexGroupPrefix(groupID, to: &key)
            try appendKeys(of: document.fields, in: &key, path: path, body)
        }
    }

    /// Calls `body` with the keys of every field of `map`; `key` holds the group prefix and the
    /// names of the enclosing maps (without the path's end marker), and is left as it was.
    private static func appendKeys(
        of map: MapValue, in key: inout KeyScratch, path: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        let enclosing = key.count
        // Indexing (rather than iterating) reads each entry in place, without copying it.
        let entries = map.entries
        for index in entries.indices {
            key.appendString(entries[index].key)
            let fieldEnd = key.count
            key.appendEnd()
            let kindOffset = key.count
            key.appendByte(IndexKind.value.rawValue)
            key.appendValue(entries[index].value)
            key.appendRaw(path)
            try key.withBytes(body)
            switch entries[index].value {
            case .array(let elements):
                for element in elements {
                    key.truncate(to: kindOffset)
                    key.appendByte(IndexKind.element.rawValue)
                    key.appendValue(element)
                    key.appendRaw(path)
                    try key.withBytes(body)
                }
            case .map(let inner) where !inner.isVector:  // a vector is a leaf: no entries inside it
                key.truncate(to: fieldEnd)
                try appendKeys(of: inner, in: &key, path: path, body)
            default:
                break
            }
            key.truncate(to: enclosing)
        }
    }
}
