import DocumentModel
import Foundation
import Testing

@testable import FirestoreExport

@Suite("Entity encoding")
struct EntityCodecTests {
    private let decoder = EntityDecoder(database: GoogleFixture.database)

    private func googleRecords() throws -> [[UInt8]] {
        var reader = try LogReader(path: GoogleFixture.output)
        var records: [[UInt8]] = []
        while let record = try reader.next() { records.append(record.bytes) }
        return records
    }

    @Test func googlesExportDecodesToEveryValueExactly() throws {
        var decoded: [String: MapValue] = [:]
        for record in try googleRecords() {
            let document = try decoder.decode(record)
            decoded[document.name.path.description] = document.fields
        }
        let expected = GoogleFixture.documents
        #expect(Set(decoded.keys) == Set(expected.keys))
        for (path, fields) in expected {
            let actual = try #require(decoded[path], "\(path)")
            #expect(Value.map(actual).isIdentical(to: .map(fields)), "\(path): \(actual)")
        }
        // Signs and NaN, which `isIdentical` may compare loosely.
        let doubles = try #require(decoded["t/dbl"])
        guard case .double(let negativeZero) = doubles["nz"], case .double(let nan) = doubles["nan"] else {
            Issue.record("not doubles")
            return
        }
        #expect(negativeZero.sign == .minus && negativeZero == 0)
        #expect(nan.isNaN)
        guard case .geoPoint(let point) = try #require(decoded["t/geo"])["z"] else { return }
        #expect(point.latitude.sign == .minus)
    }

    @Test func encodingReproducesGooglesBytesFieldForField() throws {
        // Google writes properties in hash order; Hearth in field order. Each top-level field
        // (key, every property, entity group) must be byte-identical.
        for record in try googleRecords() {
            let document = try decoder.decode(record)
            let renamed = Document(
                name: try DocumentName(GoogleFixture.exported, document.name.path), fields: document.fields,
                createTime: .min, updateTime: .min)
            let encoded = try EntityEncoder.encode(renamed)
            #expect(
                try Self.fields(of: encoded).sorted(by: Self.lexicographic)
                    == Self.fields(of: record).sorted(by: Self.lexicographic),
                "\(document.name.path)")
        }
    }

    @Test func everyValueRoundTrips() throws {
        var deep: Value = ["leaf": "bottom"]
        for level in 0..<19 { deep = ["m\(level)": deep, "n": .integer(Int64(level))] }
        let other = try DatabaseID(project: "elsewhere", database: "named")
        let fields: MapValue = [
            "deep": deep,
            "mixed": [
                nil, true, .integer(.min), .double(.nan), .timestamp(.max.truncatedToMicroseconds), "s", .bytes([]),
                .reference(GoogleFixture.name("c/__id-9__/d/x")), .reference(try DocumentName(other, "o/p")),
                .geoPoint(try GeoPoint(latitude: -90, longitude: 180)), .map(MapValue()), .vector([0.5]),
                ["inner": [], "v": .vector([-0.0, .infinity])],
            ],
            "times": [.timestamp(try Timestamp(seconds: -1, nanoseconds: 999_999_000)), .timestamp(.min)],
            "": "empty name", "a.b": ["`": 1], "ünï": "😀\u{0}x",
        ]
        for path in ["c/__id9223372036854775807__", "c/__id-9223372036854775808__", "a/b/c/d/e/f", "x/.../y/`"] {
            let document = Document(name: GoogleFixture.name(path), fields: fields, createTime: .min, updateTime: .min)
            let decoded = try decoder.decode(try EntityEncoder.encode(document))
            #expect(decoded.name == document.name)
            #expect(Value.map(decoded.fields).isIdentical(to: .map(fields)))
        }
    }

    @Test func badEntitiesNameTheirByte() throws {
        let document = Document(name: GoogleFixture.name("c/d"), fields: ["a": 1], createTime: .min, updateTime: .min)
        let bytes = try EntityEncoder.encode(document)
        let cases: [(bytes: [UInt8], code: ExportError.Code, message: String)] = [
            (bytes + [0xF8, 0x01, 0x00], .unknownTag, "unknown field 31 (wire type 0) in the entity"),
            (Array(bytes.dropLast(1)), .truncated, "a field of 8 bytes runs past the end of the entity"),
            ([0x6A, 0x03, 0x6A, 0x01, 0xFF], .malformed, "a string that is not UTF-8"),
            (
                [0x7A, 0x08, 0x1A, 0x01, 0x61, 0x2A, 0x03, 0x58, 0x01, 0x00], .unknownTag,
                "unknown field 11 (wire type 0) in a property value"
            ),
        ]
        for (input, code, message) in cases {
            #expect {
                _ = try decoder.decode(input)
            } throws: { error in
                guard let error = error as? ExportError else { return false }
                return error.code == code && error.message == message && error.offset != nil
            }
        }
    }

    /// The bytes of each top-level field of an encoded message.
    private static func fields(of bytes: [UInt8]) throws -> [[UInt8]] {
        var reader = ProtoReader(bytes)
        var fields: [[UInt8]] = []
        while let tag = try reader.nextTag() {
            try reader.skip(tag)
            fields.append(Array(bytes[tag.offset..<reader.position]))
        }
        return fields
    }

    private static func lexicographic(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool { lhs.lexicographicallyPrecedes(rhs) }
}
