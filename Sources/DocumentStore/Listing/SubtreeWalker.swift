import DocumentModel
import LevelDB

/// Walks the documents table under a path at a read version, one child at a time: listing's
/// building block. Deleted documents keep tombstones for the retention window, so whether a
/// document (or anything below a path) exists is decided by reading versions, not keys.
final class SubtreeWalker {
    private let reader: SnapshotReader
    private let cursor: Cursor
    private let probe: Cursor
    private let databasePrefix: OrderedKey
    private let readVersion: [UInt8]

    init(_ reader: SnapshotReader) throws {
        self.reader = reader
        cursor = try reader.makeCursor()
        probe = try reader.makeCursor()
        databasePrefix = StorageKeys.databasePrefix(reader.databaseID)
        readVersion = StorageKeys.descending(reader.version)
    }

    /// The documents-table prefix of every key at or below `path` (its segments, no end).
    func subtreePrefix(_ segments: [String]) -> [UInt8] {
        var key = databasePrefix
        for segment in segments { key.appendPathSegment(segment) }
        return key.bytes
    }

    /// Calls `visit` with the path of each child of `parent` at `depth` segments (a collection
    /// id or a document) that has keys at or below it, in order, starting at `start` (a key
    /// prefix) until `visit` returns false.
    func forEachChild(
        under parent: [UInt8], depth: Int, from start: [UInt8], _ visit: ([String]) throws -> Bool
    ) throws {
        cursor.seek(to: start)
        while cursor.isValid, cursor.keyHasPrefix(parent) {
            let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
            guard name.path.segments.count >= depth else {
                // A document above the children (the parent itself): past its versions.
                cursor.seek(to: KeyRange.successor(ofPrefix: StorageKeys.versionsPrefix(name)) ?? [0xFF])
                continue
            }
            let child = Array(name.path.segments.prefix(depth))
            guard try visit(child) else { return }
            cursor.seek(to: KeyRange.successor(ofPrefix: subtreePrefix(child)) ?? [0xFF])
        }
        try cursor.checkError()
    }

    /// The document at `path` as of the read version, or `nil`.
    func document(_ path: [String]) throws -> Document? {
        let name = try DocumentName(reader.databaseID, ResourcePath(segments: path))
        let versions = StorageKeys.versionsPrefix(name)
        probe.seek(to: versions + readVersion)
        guard probe.isValid, probe.keyHasPrefix(versions) else { return nil }
        return try probe.withValue { try StoredVersion.decode($0, name: name) }.document
    }

    /// Whether some document strictly below `path` exists at the read version.
    func hasDescendant(_ path: [String]) throws -> Bool {
        let prefix = subtreePrefix(path)
        let own = StorageKeys.encodedPath(try ResourcePath(segments: path))
        // Past the path's own versions (its segments, then `00 00`).
        probe.seek(to: KeyRange.successor(ofPrefix: databasePrefix.bytes + own) ?? [0xFF])
        while probe.isValid, probe.keyHasPrefix(prefix) {
            let (name, _) = try StorageKeys.decodeVersionKey(probe.key)
            let versions = StorageKeys.versionsPrefix(name)
            probe.seek(to: versions + readVersion)
            if probe.isValid, probe.keyHasPrefix(versions),
                try probe.withValue({ try StoredVersion.decode($0, name: name) }).document != nil
            {
                return true
            }
            probe.seek(to: KeyRange.successor(ofPrefix: versions) ?? [0xFF])
        }
        try probe.checkError()
        return false
    }
}
