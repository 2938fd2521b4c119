import Foundation

/// The threads a store's blocking work runs on: one writer (commits are serialized by the commit
/// lock anyway, so more writers would only wait on it) and one reader per core, at least two and
/// at most four, so reads proceed while a commit waits on the disk. Each store has its own,
/// stopped by `close()`, so one store's slow work never holds up another's.
final class StoreThreads: Sendable {
    /// Async commits and clearing.
    let writer = StoreThreadPool(role: .writer, threadCount: 1)
    /// Reads, queries, aggregations, listings, listener snapshots, and garbage collection (which
    /// takes the commit lock per batch, so commits on the writer go on between its batches).
    let readers = StoreThreadPool(role: .reader, threadCount: StoreThreads.readerCount)

    /// Read once per process: `activeProcessorCount` reads the cgroup files on Linux, a cost
    /// every store's open paid (a fresh HearthTesting environment opens one).
    private static let readerCount = min(4, max(2, ProcessInfo.processInfo.activeProcessorCount))

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
