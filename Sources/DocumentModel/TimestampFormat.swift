/// RFC 3339 formatting and parsing for `Timestamp`, with `CivilDate`'s proleptic Gregorian
/// calendar arithmetic (no Foundation formatters, so it is exact for all years 1 ... 9999 and
/// independent of locale).
enum TimestampFormat {
    static func format(_ timestamp: Timestamp) -> String {
        let days = CivilDate.floorDivide(timestamp.seconds, 86_400).quotient
        let secondOfDay = timestamp.seconds - days * 86_400
        let (year, month, day) = CivilDate.date(days: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        let nanos = Int64(timestamp.nanoseconds)
        if nanos != 0 {
            if nanos % 1_000_000 == 0 {
                text += "." + pad(nanos / 1_000_000, 3)
            } else if nanos % 1000 == 0 {
                text += "." + pad(nanos / 1000, 6)
            } else {
                text += "." + pad(nanos, 9)
            }
        }
        return text + "Z"
    }

    static func parse(_ text: String) throws -> Timestamp {
        let bytes = Array(text.utf8)
        var index = 0
        func fail() -> FirestoreError {
            FirestoreError.invalidArgument("Invalid timestamp '\(text)': expected RFC 3339, like 2024-05-01T12:00:00Z")
        }
        func number(_ digits: Int) throws -> Int64 {
            guard index + digits <= bytes.count else { throw fail() }
            var value: Int64 = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard (0x30...0x39).contains(byte) else { throw fail() }
                value = value * 10 + Int64(byte - 0x30)
                index += 1
            }
            return value
        }
        func expect(_ characters: String) throws {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { throw fail() }
            index += 1
        }
        let year = try number(4)
        try expect("-")
        let month = try number(2)
        try expect("-")
        let day = try number(2)
        try expect("Tt")
        let hour = try number(2)
        try expect(":")
        let minute = try number(2)
        try expect(":")
        let second = try number(2)
        var nanos: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                guard digits < 9 else { throw fail() }
                nanos = nanos * 10 + Int64(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw fail() }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offsetSeconds: Int64 = 0
        guard index < bytes.count else { throw fail() }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            index += 1
        } else {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            try expect("+-")
            let offsetHours = try number(2)
            try expect(":")
            let offsetMinutes = try number(2)
            guard offsetHours < 24, offsetMinutes < 60 else { throw fail() }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1,
            day <= CivilDate.daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 60
        else { throw fail() }
        let seconds = CivilDate.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            - offsetSeconds
        return try Timestamp(seconds: seconds, nanoseconds: Int32(nanos))
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
