import DocumentModel
import LevelDB

/// The documents of a query's scope read from the documents table at the reader's version, in
/// name order: the plan for past read times (the index holds only the current version) and for
/// queries of every collection.
///
/// Each document costs two seeks: one to its version at the read version, one past it (past
/// its older versions into its subcollections when the scope descends, past its whole subtree
/// when it does not).
final class DocumentScanSource: CandidateSource {
    private let reader: SnapshotReader
    private let scope: QueryScope
    private let cursor: LevelDB.Cursor
    private let databasePrefix: OrderedKey
    private let prefix: [UInt8]
    private let readVersion: [UInt8]

    init(_ reader: SnapshotReader, scope: QueryScope) throws {
        self.reader = reader
        self.scope = scope
        cursor = try reader.makeCursor()
        databasePrefix = StorageKeys.databasePrefix(scope.database)
        prefix = databasePrefix.bytes + scope.pathPrefix
        readVersion = StorageKeys.descending(reader.version)
        cursor.seek(to: prefix)
    }

    func next() throws -> Candidate? {
        while cursor.isValid, cursor.keyHasPrefix(prefix) {
            let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
            let depth = scope.parent.segments.count + 2
            if !scope.allDescendants, name.path.segments.count > depth {
                // Below a document of the scope's depth: skip that document's whole subtree.
                skipSubtree(of: Array(name.path.segments.prefix(depth)))
                continue
            }
            let versions = StorageKeys.versionsPrefix(name)
            var document: Document?
            if scope.contains(name.path) {
                cursor.seek(to: versions + readVersion)
                if cursor.isValid, cursor.keyHasPrefix(versions) {
                    document = try cursor.withValue { try StoredVersion.decode($0, name: name) }.document
                }
            }
            if scope.allDescendants || name.path.segments.count < depth {
                // Past this document's older versions, into its subcollections.
                cursor.seek(to: KeyRange.successor(ofPrefix: versions) ?? [0xFF])
            } else {
                skipSubtree(of: name.path.segments)
            }
            if let document {
                return Candidate(path: StorageKeys.encodedPath(name.path), document: document)
            }
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
