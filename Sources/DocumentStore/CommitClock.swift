import DocumentModel

/// Hands out commit versions: microseconds since the epoch, strictly increasing even when the
/// wall clock stands still or steps back.
///
/// - Important: Not thread-safe; used only under the store's commit lock.
struct CommitClock {
    private let clock: any WallClock
    private(set) var lastVersion: Int64

    init(clock: any WallClock, lastVersion: Int64) {
        self.clock = clock
        self.lastVersion = lastVersion
    }

    /// The next commit version, later than every earlier one.
    mutating func next() -> Int64 {
        lastVersion = max(clock.now().microsecondsSinceEpoch, lastVersion + 1)
        return lastVersion
    }

    /// The wall clock's current time in microseconds, for retention arithmetic.
    /// Makes every later version later than `version`.
    mutating func advance(past version: Int64) {
        lastVersion = max(lastVersion, version)
    }

    func nowMicroseconds() -> Int64 { clock.now().microsecondsSinceEpoch }
}
