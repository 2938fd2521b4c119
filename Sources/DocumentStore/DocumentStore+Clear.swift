public import DocumentModel
import LevelDB
import Synchronization

extension DocumentStore {
    /// Deletes every document of `databaseID` at or below `path` (the whole database for the
    /// root, a collection and everything in it, or a document with its subcollections), as one
    /// commit: the emulator's "clear data" endpoint.
    ///
    /// The clear is an ordinary commit of tombstones (with their index changes, and delivered to
    /// listeners like any commit): reads at an earlier read time still see the cleared
    /// documents, reads at or after the returned time see none, and garbage collection frees the
    /// space once the retention window has passed. Concurrent commits run wholly before or after
    /// it, and a transaction that read a cleared document aborts.
    ///
    /// - Returns: the commit time, or `nil` if there was nothing to delete (nothing is written).
    @discardableResult
    public func clear(_ databaseID: DatabaseID, below path: ResourcePath = .root) throws -> Timestamp? {
        try commitState.withLock { state in
            try DocumentStore.mapLevelDBErrors {
                try resumeWritesIfStopped(&state)
                let live = try liveDocuments(in: StorageKeys.subtreePrefix(databaseID, path))
                guard !live.isEmpty else { return nil }
                let version = state.clock.next()
                let commitTime = Timestamp(microsecondsSinceEpoch: version)
                var pending = PendingCommit(commitTime: commitTime, writeCount: live.count)
                for document in live {
                    let position = try pending.touch(document.name) { _, _ in .live(document) }
                    pending.record(.tombstone, at: position)
                }
                // A clear only deletes entries, so it indexes no new collection group.
                let batch = state.emptyBatch()
                pending.fill(batch, version: version, indexGroups: &state.indexGroups, scratch: state.keyScratch)
                // The tail of `commit(_:)`: write, publish the version, tell listeners.
                try write(batch, version: version, state: &state)
                publish(pending.changeRecords(), version: version)
                return commitTime
            }
        }
    }

    /// The newest version of every document under `prefix` that is not a tombstone. Versions
    /// of a document are consecutive keys, newest first.
    ///
    /// - Important: Call with the commit lock held, so no commit interleaves.
    private func liveDocuments(in prefix: [UInt8]) throws -> [Document] {
        var live: [Document] = []
        var previous: DocumentName?
        let cursor = try database.makeCursor()
        cursor.seek(to: prefix)
        while cursor.isValid, cursor.keyHasPrefix(prefix) {
            let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
            if name != previous {
                previous = name
                if let document = try cursor.withValue({ try StoredVersion.decode($0, name: name) }).document {
                    live.append(document)
                }
            }
            cursor.next()
        }
        try cursor.checkError()
        return live
    }
}
