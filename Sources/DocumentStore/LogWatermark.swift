import Dispatch
import Synchronization

/// Records the write-ahead logs' synced sizes while the store runs (`CleanStopRecord.writeWatermark`),
/// at most once per `interval` and only after commits, off the commit path: so a log cut short
/// after a crash is found at the next open when the cut reaches back past the last watermark.
/// Opt-in (`StoreConfiguration.logWatermarkInterval`): the server's store has one.
final class LogWatermark: Sendable {
    private struct State {
        /// When the last watermark was written; at first, when the store opened, so that a
        /// store closed within `interval` (a test's) writes none: its clean stop records the logs.
        var lastWritten = ContinuousClock.now
        var isScheduled = false
        var isStopped = false
    }

    /// The least time between two watermarks.
    private let interval: Duration

    private let record: CleanStopRecord
    private let state = Mutex(State())
    /// Serializes record writes with `stop()`.
    private let writing = Mutex(())
    private static let queue = DispatchQueue(label: "hearth.log-watermark", qos: .utility)

    init(folder: String, interval: Duration) {
        record = CleanStopRecord(folder: folder)
        self.interval = interval
    }

    /// Called after each commit's write: schedules a watermark unless one is scheduled or was
    /// written less than `interval` ago.
    func noteCommit() {
        let now = ContinuousClock.now
        let delay = state.withLock { state -> Duration? in
            guard !state.isScheduled, !state.isStopped else { return nil }
            state.isScheduled = true
            return max(.zero, interval - (now - state.lastWritten))
        }
        guard let delay else { return }
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        Self.queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in writeNow() }
    }

    private func writeNow() {
        writing.withLock { _ in
            let proceed = state.withLock { state -> Bool in
                state.isScheduled = false
                state.lastWritten = ContinuousClock.now
                return !state.isStopped
            }
            // A failure leaves the previous record, which stays correct (logs only grow until
            // the manifest changes, which makes it stale).
            if proceed { try? record.writeWatermark() }
        }
    }

    /// Stops watermarks, waiting for one being written: the store is closing, and its clean
    /// stop writes the last record.
    func stop() {
        writing.withLock { _ in state.withLock { $0.isStopped = true } }
    }
}
