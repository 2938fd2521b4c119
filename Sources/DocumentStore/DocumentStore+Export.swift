package import DocumentModel
import LevelDB

extension DocumentStore {
    /// Calls `visit` with every live document of `databaseID` as of the latest commit, in the
    /// documents table's order (a parent before its subcollections), from one consistent
    /// snapshot, one document in memory at a time: the scan behind export.
    ///
    /// - Throws: what `visit` throws; `.dataLoss` for damaged storage.
    package func forEachDocument(in databaseID: DatabaseID, _ visit: (Document) throws -> Void) throws {
        try withSnapshotReader(databaseID, readTime: nil, reading: "The documents of \(databaseID)") { reader in
            let prefix = StorageKeys.databasePrefix(databaseID).bytes
            let readVersion = StorageKeys.descending(reader.version)
            let cursor = try reader.makeCursor()
            cursor.seek(to: prefix)
            while cursor.isValid, cursor.keyHasPrefix(prefix) {
                let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
                let versions = StorageKeys.versionsPrefix(name)
                cursor.seek(to: versions + readVersion)
                if cursor.isValid, cursor.keyHasPrefix(versions),
                    let document = try cursor.withValue({ try StoredVersion.decode($0, name: name) }).document
                {
                    try visit(document)
                }
                cursor.seek(to: KeyRange.successor(ofPrefix: versions) ?? [0xFF])
            }
            try cursor.checkError()
        }
    }

    /// Whether `databaseID` has at least one live document as of the latest commit.
    package func hasDocuments(in databaseID: DatabaseID) throws -> Bool {
        struct Found: Error {}
        do {
            try forEachDocument(in: databaseID) { _ in throw Found() }
        } catch is Found {
            return true
        }
        return false
    }
}

extension DocumentStore {
    /// Checks `writes` as a commit would (Firestore's limits and value rules) without
    /// committing them: how an import refuses bad input before writing anything.
    ///
    /// - Throws: the `FirestoreError` the commit would throw.
    package static func validate(_ writes: [Write]) throws {
        _ = try WriteValidator.validated(writes)
    }
}
