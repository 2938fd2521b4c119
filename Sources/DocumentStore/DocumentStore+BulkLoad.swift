package import DocumentModel
import LevelDB
import Synchronization

extension DocumentStore {
    /// The bytes of a bulk load's write batches (about a thousand small documents with their
    /// index entries).
    package static let bulkLoadBatchBytes = 1 << 20

    /// The bytes of index keys a bulk load sorts in memory before it spills a sorted run to a
    /// temporary file (`IndexKeySorter`).
    package static let bulkLoadSortBytes = 16 << 20

    /// Loads any number of documents into `database` as one commit, all or nothing, in constant
    /// memory: what an import does.
    ///
    /// `produce` adds the documents through the loader (`BulkLoader.add`), each as a `set`. They
    /// are written at one commit version in batches as they come, but reads see none of them
    /// until `produce` returns and the last batch is written; if `produce` or a write throws, or
    /// the process dies (a crash, SIGKILL), what the load wrote is deleted again (at once, or
    /// when the store next opens; see `BulkLoadMarker`) and the database is as it was.
    /// `replacing` deletes the database's documents first, in the same commit. The index keys
    /// of the documents it creates are written last, in key order (sorted in `sortBytes` of
    /// memory, beyond that in a temporary file in the data folder that no crash leaves behind).
    ///
    /// The commit lock is held throughout: other commits wait for the load (reads do not).
    /// Transactions holding locks on what it changes are aborted, as by `commit(_:)`. Load a
    /// database nobody reads or listens to meanwhile (an import, a seed): listeners are not told
    /// about the load, and the single-field index, which holds current versions only, has the
    /// written batches' entries before they are published, so a query of that database that
    /// uses the index may see part of the load until it ends.
    ///
    /// ```swift
    /// let time = try store.bulkLoad(into: db, replacing: false) { loader in
    ///     for (name, fields) in documents { try loader.add(name, fields: fields) }
    /// }
    /// ```
    ///
    /// - Returns: the commit time.
    /// - Throws: what `produce` throws; `FirestoreError` from the store (see `BulkLoader.add`).
    @discardableResult
    package func bulkLoad(
        into database: DatabaseID, replacing: Bool, batchBytes: Int = bulkLoadBatchBytes,
        sortBytes: Int = bulkLoadSortBytes, _ produce: (inout BulkLoader) throws -> Void
    ) throws -> Timestamp {
        try commitState.withLock { state in
            try resumeWritesIfStopped(&state)
            let version = state.clock.next()
            let marker = BulkLoadMarker(database: database, version: version)
            try DocumentStore.mapLevelDBErrors {
                let begin = WriteBatch()
                let reservation = state.reserve(version, in: begin)
                begin.put(BulkLoadMarker.key, marker.encoded)
                do {
                    try self.database.write(begin, sync: configuration.syncCommits)
                } catch let error as LevelDBError where error.code == .ioError {
                    throw writeError(error)
                }
                state.reservedVersion = reservation
            }
            var loader = BulkLoader(
                store: self, database: database, version: version, indexGroups: state.indexGroups,
                batchBytes: batchBytes, sortBytes: sortBytes)
            do {
                // (No closure may hold both `produce` and `state`: the state would join the caller's region.)
                if replacing { try loader.deleteEveryDocument() }
                try produce(&loader)
                try loader.finish()
                state.indexGroups = loader.indexGroups
                // The tail of `commit(_:)`: the batch that deletes the marker publishes the version.
                let last = state.emptyBatch()
                last.delete(BulkLoadMarker.key)
                try DocumentStore.mapLevelDBErrors { try write(last, version: version, state: &state) }
            } catch {
                state.indexGroups = loader.indexGroups
                state.indexGroups.forgetUnwritten()
                // If this fails too (a full disk), the marker stays: the rollback runs when
                // writes resume or the store next opens, before any other commit.
                try? DocumentStore.mapLevelDBErrors { try marker.rollBack(in: self.database) }
                throw error
            }
            return Timestamp(microsecondsSinceEpoch: version)
        }
    }
}
