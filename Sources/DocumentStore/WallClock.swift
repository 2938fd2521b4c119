public import DocumentModel
import Foundation
import Synchronization

/// The source of wall-clock time for commit times and server timestamps.
///
/// Injected into the store so tests control time (see `ManualWallClock`); nothing deeper in the
/// engine reads the system clock.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Timestamp
}

/// The system's real-time clock.
public struct SystemWallClock: WallClock {
    public init() {}

    public func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(microsecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
    }
}

/// A clock that moves only when told to; for tests.
///
/// ```swift
/// let clock = ManualWallClock(Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000))
/// clock.advance(bySeconds: 3600)
/// ```
public final class ManualWallClock: WallClock {
    private let current: Mutex<Timestamp>

    public init(_ start: Timestamp) {
        current = Mutex(start)
    }

    public func now() -> Timestamp { current.withLock { $0 } }

    /// Sets the time, also backwards.
    public func set(_ time: Timestamp) { current.withLock { $0 = time } }

    /// Moves the time forward (or back, for a negative amount).
    public func advance(bySeconds seconds: Double) {
        current.withLock {
            $0 = Timestamp(microsecondsSinceEpoch: $0.microsecondsSinceEpoch + Int64(seconds * 1_000_000))
        }
    }
}
