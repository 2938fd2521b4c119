import DocumentModel
import LevelDB

extension DocumentStore {
    /// Free bytes a stopped store waits for before it reopens the database: room for the
    /// table the reopen writes out of the write-ahead log (up to two write buffers) and more.
    var spaceToResumeWrites: Int64 { Int64(configuration.levelDB.writeBufferBytes) * 2 + (1 << 20) }

    /// Called before each commit, under the commit lock and before it reads (the reopen waits
    /// for every open iterator and snapshot): when an I/O failure stopped writes,
    /// reopens the database once the disk has room again (reloading the last-commit
    /// reservation, in case the failed write reached the disk after all), so that writes
    /// resume without a restart.
    ///
    /// - Throws: RESOURCE_EXHAUSTED naming the disk while it is still full.
    func resumeWritesIfStopped(_ state: inout CommitState) throws {
        guard let failure = database.writeFailure else { return }
        let disk = DiskSpace(path: path)
        if DiskSpace.meansFull(failure.message), let free = disk.availableBytes, free < spaceToResumeWrites {
            throw writeError(failure)
        }
        do {
            try database.reopen(waitingUpTo: .seconds(2))
        } catch let error as LevelDBError {
            throw writeError(error)
        }
        // A bulk load the failure interrupted is undone before anything else is written.
        try BulkLoadMarker.rollBackInterrupted(in: database)
        try DocumentStore.mapLevelDBErrors {
            guard let stored = try database.get(StorageKeys.lastCommitKey) else { return }
            var reader = OrderedKeyReader(stored)
            let reservation = try reader.readInt64()
            if reservation > state.reservedVersion {
                state.reservedVersion = reservation
                state.clock.advance(past: reservation)
            }
        }
    }

    /// The error a client gets for a failed write: RESOURCE_EXHAUSTED naming the disk when it
    /// is full, the store's mapping of the LevelDB error otherwise.
    func writeError(_ error: LevelDBError) -> FirestoreError {
        guard DiskSpace.meansFull(error.message) else { return DocumentStore.storeError(error) }
        let disk = DiskSpace(path: path)
        return FirestoreError(
            .resourceExhausted,
            "The disk holding data folder '\(path)' (the file system mounted at '\(disk.mountPoint)') is full: "
                + "writes fail until space is freed there, then resume; reads go on (LevelDB: \(error.message))")
    }
}
