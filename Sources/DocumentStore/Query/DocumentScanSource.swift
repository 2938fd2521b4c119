import DocumentModel
import QueryEngine
import LevelDB

/// The documents of a query's scope read from the documents table at the reader's version, in
/// name order, within name bounds: the plan for collection scans (no equality-like filter to
/// drive an index scan), for past read times (the index holds only the current version) and for
/// queries of every collection.
///
/// The documents table is ordered by encoded path (a document's versions come before the
/// documents of its subcollections), so the scan starts at the lower bound and stops at the
/// upper one. The cursor steps from key to key, and seeks only to skip: to a document's version
/// at the read version when its newest is newer, past its older versions when it has some, and
/// past the subtree of a document that has subcollections the scope does not descend into. A
/// document with one version at or before the read version, and no subcollections, costs no
/// seek. Without `readsDocuments` (a count) a version is only checked to be live, not decoded.
final class DocumentScanSource: CandidateSource {
    private let reader: SnapshotReader
    private let scope: QueryScope
    private let cursor: LevelDB.Cursor
    private let databasePrefix: OrderedKey
    private let prefix: [UInt8]
    private let bounds: PathBounds
    private let readVersion: [UInt8]
    private let readsDocuments: Bool

    init(_ reader: SnapshotReader, scope: QueryScope, bounds: PathBounds, readsDocuments: Bool) throws {
        self.reader = reader
        self.scope = scope
        self.readsDocuments = readsDocuments
        cursor = try reader.makeCursor()
        databasePrefix = StorageKeys.databasePrefix(scope.database)
        prefix = databasePrefix.bytes + scope.pathPrefix
        self.bounds = bounds.intersection(PathBounds(prefix: scope.pathPrefix))
        readVersion = StorageKeys.descending(reader.version)
        cursor.seek(to: databasePrefix.bytes + self.bounds.lower)
    }

    func next() throws -> Candidate? {
        while cursor.isValid, cursor.keyHasPrefix(prefix) {
            let key = cursor.key
            let name = try StorageKeys.decodeVersionKey(key, in: scope.database, prefixLength: databasePrefix.count)
            let depth = scope.parent.segments.count + 2
            if !scope.allDescendants, name.path.segments.count > depth {
                // Below a document of the scope's depth: skip that document's whole subtree.
                skipSubtree(of: Array(name.path.segments.prefix(depth)))
                continue
            }
            // The key is the document's versions prefix (database, then its encoded path) and 8
            // version bytes: both parts are read from it, not encoded again.
            let versions = Array(key.dropLast(8))
            let path = Array(versions[databasePrefix.count...])
            switch bounds.position(of: path) {
            case .before:
                // Only an ancestor of the lower bound (its subcollections may reach into range).
                cursor.seek(to: KeyRange.successor(ofPrefix: versions) ?? [0xFF])
                continue
            case .after:
                try cursor.checkError()
                return nil
            case .inside:
                break
            }
            var candidate: Candidate?
            if scope.contains(name.path) {
                // The cursor is on the newest version (versions sort newest first); it is the one
                // to read unless it is newer than the read version.
                if key.suffix(8).lexicographicallyPrecedes(readVersion) {
                    cursor.seek(to: versions + readVersion)
                }
                if cursor.isValid, cursor.keyHasPrefix(versions) {
                    candidate = try cursor.withValue { stored in
                        if readsDocuments {
                            return try StoredVersion.decode(stored, name: name).document.map { Candidate(path: path, document: $0) }
                        }
                        return StoredVersion.isLive(stored) ? Candidate(path: path) : nil
                    }
                }
            }
            // Past this document's older versions, to the next document or into its
            // subcollections (which the loop skips when the scope does not descend).
            if cursor.isValid, cursor.keyHasPrefix(versions) { cursor.next() }
            if cursor.isValid, cursor.keyHasPrefix(versions) {
                cursor.seek(to: KeyRange.successor(ofPrefix: versions) ?? [0xFF])
            }
            if let candidate { return candidate }
        }
        try cursor.checkError()
        return nil
    }

    private func skipSubtree(of segments: [String]) {
        var key = databasePrefix
        for segment in segments { key.appendPathSegment(segment) }
        cursor.seek(to: KeyRange.successor(ofPrefix: key.bytes) ?? [0xFF])
    }
}
