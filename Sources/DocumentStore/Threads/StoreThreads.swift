import Foundation

/// The threads a store's blocking work runs on: one writer (commits are serialized by the commit
/// lock anyway, so more writers would only wait on it) and one reader per core, at least two, so
/// reads proceed while a commit waits on the disk. Each store has its own, stopped by `close()`,
/// so one store's slow work never holds up another's.
final class StoreThreads: Sendable {
    /// Commits, clearing and garbage collection.
    let writer = StoreThreadPool(role: .writer, threadCount: 1)
    /// Reads, queries, aggregations, listings and listener snapshots.
    let readers = StoreThreadPool(role: .reader, threadCount: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Lets the threads exit once their queued work is done.
    func shutdown() {
        writer.shutdown()
        readers.shutdown()
    }

    /// A store that failed to open, or was never closed, stops its threads too.
    deinit {
        shutdown()
    }
}
