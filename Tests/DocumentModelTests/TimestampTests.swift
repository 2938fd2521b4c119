import DocumentModel
import Foundation
import Testing

@Suite struct TimestampRangeTests {
    @Test func acceptsTheWholeRangeAndNothingBeyond() throws {
        #expect(try Timestamp(seconds: Timestamp.minSeconds, nanoseconds: 0) == .min)
        #expect(try Timestamp(seconds: Timestamp.maxSeconds, nanoseconds: 999_999_999) == .max)
        expectFirestoreError(.invalidArgument, mentioning: "\(Timestamp.minSeconds - 1)") {
            _ = try Timestamp(seconds: Timestamp.minSeconds - 1, nanoseconds: 999_999_999)
        }
        expectFirestoreError(.invalidArgument, mentioning: "\(Timestamp.maxSeconds + 1)") {
            _ = try Timestamp(seconds: Timestamp.maxSeconds + 1, nanoseconds: 0)
        }
        expectFirestoreError(.invalidArgument, mentioning: "1000000000") {
            _ = try Timestamp(seconds: 0, nanoseconds: 1_000_000_000)
        }
        expectFirestoreError(.invalidArgument, mentioning: "-1") { _ = try Timestamp(seconds: 0, nanoseconds: -1) }
        expectFirestoreError(.invalidArgument) { _ = try Timestamp(seconds: Int64.max, nanoseconds: 0) }
    }

    @Test func ordersBySecondsThenNanoseconds() {
        let ordered = [
            Timestamp.min, timestamp(-1, 0), timestamp(-1, 999_999_999), timestamp(0), timestamp(0, 1), .max,
        ]
        for (left, right) in zip(ordered, ordered.dropFirst()) { #expect(left < right && !(right < left)) }
        #expect(ordered.reversed().sorted() == ordered)
    }
}

@Suite struct TimestampFormatTests {
    @Test(
        arguments: [
            (0, 0, "1970-01-01T00:00:00Z"),
            (0, 500_000_000, "1970-01-01T00:00:00.500Z"),
            (0, 1_000_000, "1970-01-01T00:00:00.001Z"),
            (0, 123_456_000, "1970-01-01T00:00:00.123456Z"),
            (0, 1000, "1970-01-01T00:00:00.000001Z"),
            (0, 123_456_789, "1970-01-01T00:00:00.123456789Z"),
            (0, 1, "1970-01-01T00:00:00.000000001Z"),
            (1_700_000_000, 500, "2023-11-14T22:13:20.000000500Z"),
            (-1, 0, "1969-12-31T23:59:59Z"),
            (-1, 500_000_000, "1969-12-31T23:59:59.500Z"),
            (-86_400, 0, "1969-12-31T00:00:00Z"),
            (-86_401, 999_999_999, "1969-12-30T23:59:59.999999999Z"),
            (-2_208_988_800, 0, "1900-01-01T00:00:00Z"),
            (-11_670_998_400, 0, "1600-02-29T00:00:00Z"),
            (951_782_400, 0, "2000-02-29T00:00:00Z"),
            (1_709_164_800, 0, "2024-02-29T00:00:00Z"),
            (-62_135_596_800, 0, "0001-01-01T00:00:00Z"),
            (-62_135_596_801 + 86_400 * 365, 0, "0001-12-31T23:59:59Z"),
            (253_402_214_400, 0, "9999-12-31T00:00:00Z"),
            (253_402_300_799, 999_999_999, "9999-12-31T23:59:59.999999999Z"),
        ] as [(Int64, Int32, String)])
    func formatsAndParsesKnownInstants(seconds: Int64, nanoseconds: Int32, text: String) throws {
        let instant = try Timestamp(seconds: seconds, nanoseconds: nanoseconds)
        #expect(instant.description == text)
        #expect(try Timestamp(rfc3339: text) == instant)
    }

    @Test(arguments: [
        ("2024-05-01T14:00:00+02:00", "2024-05-01T12:00:00Z"),
        ("2024-05-01T06:30:00-05:30", "2024-05-01T12:00:00Z"),
        ("2024-05-01T12:00:00+00:00", "2024-05-01T12:00:00Z"),
        ("2024-05-01t12:00:00z", "2024-05-01T12:00:00Z"),
        ("2024-05-01T12:00:00.5Z", "2024-05-01T12:00:00.500Z"),
        ("2024-05-01T12:00:00.000000Z", "2024-05-01T12:00:00Z"),
        ("2024-05-01T12:00:00.1234Z", "2024-05-01T12:00:00.123400Z"),
        ("2024-05-02T01:00:00+13:00", "2024-05-01T12:00:00Z"),
        ("2024-12-31T23:00:00-01:00", "2025-01-01T00:00:00Z"),
        ("0001-01-01T01:00:00+01:00", "0001-01-01T00:00:00Z"),
    ])
    func parsesOffsetsAndFractions(text: String, canonical: String) throws {
        #expect(try Timestamp(rfc3339: text).description == canonical)
    }

    @Test(arguments: [
        "", "2024-05-01", "2024-05-01T12:00:00", "2024-05-01 12:00:00Z", "2024-5-01T12:00:00Z",
        "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
        "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:00:60Z", "2024-05-01T12:00:00.Z",
        "2024-05-01T12:00:00.1234567890Z", "2024-05-01T12:00:00Zjunk", "2024-05-01T12:00:00+0200",
        "2024-05-01T12:00:00+02", "2024-05-01T12:00:00+24:00", "2024-05-01T12:00:00+02:60", " 2024-05-01T12:00:00Z",
        "+2024-05-01T12:00:00Z", "2024-05-01T12:00:00,5Z", "x024-05-01T12:00:00Z",
    ])
    func rejectsInvalidText(text: String) {
        expectFirestoreError(.invalidArgument, mentioning: text.isEmpty ? nil : text, context: text) {
            _ = try Timestamp(rfc3339: text)
        }
    }

    @Test(arguments: ["0000-12-31T23:59:59Z", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01"])
    func rejectsTextOutsideTheRange(text: String) {
        expectFirestoreError(.invalidArgument, context: text) { _ = try Timestamp(rfc3339: text) }
    }

    @Test(arguments: TestSeeds.property)
    func randomInstantsRoundTripThroughText(seed: UInt64) throws {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<3000 {
            let instant = random.timestamp()
            let parsed = try Timestamp(rfc3339: instant.description)
            #expect(parsed == instant, "seed \(seed) iteration \(iteration): \(instant.seconds) \(instant.nanoseconds)")
        }
    }

    /// Formatting agrees with Foundation's calendar arithmetic at second precision.
    @Test(arguments: TestSeeds.property)
    func formattingAgreesWithFoundation(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        for _ in 0..<500 {
            // Foundation's Gregorian calendar switches to Julian before 1582; stay after it.
            let seconds = Int64(random.below(Int(Timestamp.maxSeconds + 12_219_292_800))) - 12_219_292_800
            let instant = timestamp(seconds)
            #expect(instant.description == formatter.string(from: instant.dateValue), "seed \(seed): \(seconds)")
        }
    }
}

@Suite struct TimestampConversionTests {
    @Test(arguments: [
        Int64(0), 1, -1, 999_999, -999_999, 1_000_000, -1_000_000, -1_500_000, -1_000_001,
        1_700_000_000_123_456, -62_135_596_800_000_000, 253_402_300_799_999_999,
    ])
    func microsecondsRoundTrip(microseconds: Int64) {
        let instant = Timestamp(microsecondsSinceEpoch: microseconds)
        #expect(instant.microsecondsSinceEpoch == microseconds)
        #expect((0..<1_000_000_000).contains(instant.nanoseconds) && instant.nanoseconds % 1000 == 0)
    }

    @Test func negativeMicrosecondsFloorToTheSecondBefore() {
        let instant = Timestamp(microsecondsSinceEpoch: -1_500_000)
        #expect(instant.seconds == -2 && instant.nanoseconds == 500_000_000)
        #expect(instant.description == "1969-12-31T23:59:58.500Z")
        #expect(Timestamp(microsecondsSinceEpoch: -1).description == "1969-12-31T23:59:59.999999Z")
    }

    @Test func truncationToMicroseconds() {
        let instant = timestamp(-5, 123_456_789)
        #expect(instant.truncatedToMicroseconds == timestamp(-5, 123_456_000))
        #expect(instant.microsecondsSinceEpoch == -5_000_000 + 123_456)
        #expect(timestamp(7, 999).truncatedToMicroseconds == timestamp(7))
    }

    @Test func dates() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(Timestamp(date: date) == timestamp(1_700_000_000, 250_000_000))
        #expect(Timestamp(date: Date(timeIntervalSince1970: -0.5)) == timestamp(-1, 500_000_000))
        #expect(timestamp(1_700_000_000, 250_000_000).dateValue == date)
    }
}
