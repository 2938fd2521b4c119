public import Foundation

/// A point in time with nanosecond resolution, in Firestore's valid range
/// `0001-01-01T00:00:00Z` ... `9999-12-31T23:59:59.999999999Z`.
///
/// ```swift
/// let t = try Timestamp(seconds: 1_700_000_000, nanoseconds: 500)
/// print(t)  // 2023-11-14T22:13:20.000000500Z
/// ```
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since the Unix epoch.
    public let seconds: Int64
    /// Nanoseconds within the second, `0 ..< 1_000_000_000`.
    public let nanoseconds: Int32

    /// The first second Firestore accepts: 0001-01-01T00:00:00Z.
    public static let minSeconds: Int64 = -62_135_596_800
    /// The last second Firestore accepts: 9999-12-31T23:59:59Z.
    public static let maxSeconds: Int64 = 253_402_300_799

    /// The earliest valid timestamp.
    public static let min = Timestamp(uncheckedSeconds: minSeconds, nanoseconds: 0)
    /// The latest valid timestamp.
    public static let max = Timestamp(uncheckedSeconds: maxSeconds, nanoseconds: 999_999_999)

    /// Creates a timestamp, validating the range.
    ///
    /// - Throws: `FirestoreError.invalidArgument` when the nanoseconds or the date are out of range.
    public init(seconds: Int64, nanoseconds: Int32) throws {
        guard (0..<1_000_000_000).contains(nanoseconds) else {
            throw FirestoreError.invalidArgument(
                "Timestamp nanos exceeds limit for field (\(nanoseconds) is not in 0...999999999).")
        }
        guard (Timestamp.minSeconds...Timestamp.maxSeconds).contains(seconds) else {
            throw FirestoreError.invalidArgument(
                "Timestamp seconds exceeds limit for field (\(seconds) is outside years 1 to 9999).")
        }
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Creates a timestamp the caller knows to be valid.
    init(uncheckedSeconds seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The timestamp `microseconds` after the Unix epoch (which must lie in the valid range).
    package init(microsecondsSinceEpoch microseconds: Int64) {
        let (quotient, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        if remainder < 0 {
            self.init(uncheckedSeconds: quotient - 1, nanoseconds: Int32(remainder + 1_000_000) * 1000)
        } else {
            self.init(uncheckedSeconds: quotient, nanoseconds: Int32(remainder) * 1000)
        }
    }

    /// The timestamp of a `Date`, rounded to microseconds as Firestore stores them.
    public init(date: Date) {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded(.down)
        self.init(microsecondsSinceEpoch: Int64(micros))
    }

    /// Microseconds since the Unix epoch (sub-microsecond digits are dropped).
    package var microsecondsSinceEpoch: Int64 {
        seconds * 1_000_000 + Int64(nanoseconds / 1000)
    }

    /// The timestamp with nanoseconds cut to whole microseconds, Firestore's stored precision.
    package var truncatedToMicroseconds: Timestamp {
        Timestamp(uncheckedSeconds: seconds, nanoseconds: nanoseconds - nanoseconds % 1000)
    }

    /// The same instant as a `Date` (which has less precision).
    public var dateValue: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// RFC 3339 text in UTC, with as many fractional digits as needed (0, 3, 6 or 9), as
    /// Firestore's REST API writes it.
    public var description: String { TimestampFormat.format(self) }

    /// Parses RFC 3339 text such as `2024-05-01T12:00:00.123Z` or `2024-05-01T14:00:00+02:00`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the text.
    public init(rfc3339 text: String) throws {
        self = try TimestampFormat.parse(text)
    }
}
