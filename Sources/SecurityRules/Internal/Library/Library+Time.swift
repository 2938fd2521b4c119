import DocumentModel

extension Library {
    static func timestamp(_ value: RValue) -> Timestamp {
        if case .timestamp(let time) = value { return time }
        return Timestamp.min
    }

    /// Days since the epoch and seconds into the day of a timestamp.
    static func split(_ time: Timestamp) -> (days: Int64, secondOfDay: Int64) {
        let (days, second) = CivilDate.floorDivide(time.seconds, 86_400)
        return (days, second)
    }

    static func timestampMethod(_ name: String, _ body: @escaping @Sendable (Timestamp) -> RValue) -> Method {
        Method(name, on: "timestamp") { receiver, _, _, _ in body(timestamp(receiver)) }
    }

    static let timeMethods: [Method] = [
        timestampMethod("year") { .int(CivilDate.date(days: split($0).days).year) },
        timestampMethod("month") { .int(CivilDate.date(days: split($0).days).month) },
        timestampMethod("day") { .int(CivilDate.date(days: split($0).days).day) },
        timestampMethod("hours") { .int(split($0).secondOfDay / 3600) },
        timestampMethod("minutes") { .int(split($0).secondOfDay / 60 % 60) },
        timestampMethod("seconds") { .int(split($0).secondOfDay % 60) },
        timestampMethod("nanos") { .int(Int64($0.nanoseconds)) },
        timestampMethod("dayOfWeek") { time in
            // 1970-01-01 was a Thursday; ISO numbering, Monday 1 to Sunday 7.
            .int(CivilDate.floorDivide(split(time).days + 3, 7).remainder + 1)
        },
        timestampMethod("dayOfYear") { time in
            let days = split(time).days
            let year = CivilDate.date(days: days).year
            return .int(days - CivilDate.days(year: year, month: 1, day: 1) + 1)
        },
        timestampMethod("toMillis") { time in
            .int(time.seconds * 1000 + Int64(time.nanoseconds / 1_000_000))
        },
        timestampMethod("date") { time in
            .timestamp((try? Timestamp(seconds: split(time).days * 86_400, nanoseconds: 0)) ?? time)
        },
        timestampMethod("time") { time in
            .duration(RDuration(seconds: split(time).secondOfDay, nanos: time.nanoseconds))
        },
        Method("seconds", on: "duration") { receiver, _, _, _ in
            guard case .duration(let duration) = receiver else { return .null }
            return .int(duration.seconds)
        },
        Method("nanos", on: "duration") { receiver, _, _, _ in
            guard case .duration(let duration) = receiver else { return .null }
            return .int(Int64(duration.nanos))
        },
    ]

    static let durationUnits: [String: (seconds: Int64, nanos: Int64)] = [
        "w": (604_800, 0), "d": (86_400, 0), "h": (3600, 0), "m": (60, 0), "s": (1, 0), "ms": (0, 1_000_000),
        "ns": (0, 1),
    ]

    static let timeGlobals: [String: Global] = Dictionary(uniqueKeysWithValues: [
        global("timestamp.value", Signature("timestamp.value", [["int"]])) { arguments, _, call in
            guard case .int(let millis) = arguments[0] else { return .null }
            let (seconds, rest) = CivilDate.floorDivide(millis, 1000)
            guard let time = try? Timestamp(seconds: seconds, nanoseconds: Int32(rest * 1_000_000)) else {
                return RError.invalidTimestamp(span: call.span)
            }
            return .timestamp(time)
        },
        global("timestamp.date", Signature("timestamp.date", [["int", "int", "int"]])) { arguments, _, call in
            guard case .int(let year) = arguments[0], case .int(let month) = arguments[1],
                case .int(let day) = arguments[2]
            else { return .null }
            guard year >= 1, year <= 9999 else {
                return RError.value(
                    "Timestamp should be between 0001-01-01T00.00.00Z and 9999-12-31T23.59.59Z. year: \(year).",
                    span: call.span)
            }
            guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
                return RError.value("Date is not valid. year: \(year), month: \(month) day: \(day).", span: call.span)
            }
            let seconds = CivilDate.days(year: year, month: month, day: day) * 86_400
            return (try? Timestamp(seconds: seconds, nanoseconds: 0)).map(RValue.timestamp)
                ?? RError.invalidTimestamp(span: call.span)
        },
        global("duration.value", Signature("duration.value", [["int", "string"]])) { arguments, _, call in
            guard case .int(let amount) = arguments[0], case .string(let unit) = arguments[1] else { return .null }
            guard let scale = durationUnits[unit] else {
                return RError.value("Invalid regular expression pattern. Pattern: \(unit).", span: call.span)
            }
            let (seconds, overflow) = amount.multipliedReportingOverflow(by: scale.seconds)
            let (nanos, overflow2) = amount.multipliedReportingOverflow(by: scale.nanos)
            guard !overflow, !overflow2, let duration = RDuration.make(seconds: seconds, nanos: nanos) else {
                return RError.invalidDuration(span: call.span)
            }
            return .duration(duration)
        },
        global("duration.time", Signature("duration.time", [["int", "int", "int", "int"]])) { arguments, _, call in
            let parts = arguments.map { value -> Int64 in
                if case .int(let number) = value { return number }
                return 0
            }
            let (h, o1) = parts[0].multipliedReportingOverflow(by: 3600)
            let (m, o2) = parts[1].multipliedReportingOverflow(by: 60)
            let (hm, o3) = h.addingReportingOverflow(m)
            let (seconds, o4) = hm.addingReportingOverflow(parts[2])
            guard !(o1 || o2 || o3 || o4), let duration = RDuration.make(seconds: seconds, nanos: parts[3]) else {
                return RError.invalidDuration(span: call.span)
            }
            return .duration(duration)
        },
        global("duration.abs", Signature("duration.abs", [["duration"]])) { arguments, _, _ in
            guard case .duration(let duration) = arguments[0] else { return .null }
            return .duration(RDuration(seconds: abs(duration.seconds), nanos: abs(duration.nanos)))
        },
        global("latlng.value", Signature("latlng.value", [["number", "number"]])) { arguments, _, call in
            let latitude = Conversions.double(arguments[0])
            let longitude = Conversions.double(arguments[1])
            guard (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude) else {
                return RError.value(
                    "Latitude should be in [-90,90] range and longitude should be in [-180,180] range. "
                        + "latitude: \(Conversions.javaDouble(latitude)), longitude: \(Conversions.javaDouble(longitude)).",
                    span: call.span)
            }
            return .latlng(RLatLng(latitude: latitude, longitude: longitude))
        },
    ])
}
