#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock of the evaluation time limit: a coarse monotonic clock, in nanoseconds. The limit
/// is about a second, so a resolution of a few milliseconds is enough, and on virtual machines
/// without a usable TSC a precise clock read is a system call (about 0.2 µs, a tenth of a
/// whole decision) where the coarse one is a memory read.
enum EvaluationClock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        #else
        clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// A duration in nanoseconds (at least 1, at most about 292 years).
    static func nanoseconds(of duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1 }
        let whole = UInt64(min(seconds, 9_000_000_000)) * 1_000_000_000
        return max(1, whole + UInt64(max(0, attoseconds) / 1_000_000_000))
    }
}
