/// Calendar arithmetic in UTC, on the proleptic Gregorian calendar (Howard Hinnant's algorithms):
/// the one implementation behind `Timestamp`'s RFC 3339 text and the rules language's
/// `timestamp.date(...)`, `.year()`, `.dayOfWeek()` and friends.
package enum CivilDate {
    /// Days since 1970-01-01 of a date.
    package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01.
    package static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whether `year` has a February 29.
    package static func isLeap(_ year: Int64) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// The number of days of a month (1 ... 12) of `year`.
    package static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Floor division: the quotient rounded down and a remainder in `0 ..< b` (for `b > 0`).
    package static func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        var (q, r) = a.quotientAndRemainder(dividingBy: b)
        if r < 0 {
            q -= 1
            r += b
        }
        return (q, r)
    }
}
