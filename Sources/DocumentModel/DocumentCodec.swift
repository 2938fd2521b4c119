/// The compact binary encoding of values and documents that Hearth stores in LevelDB.
///
/// A value is a one-byte type tag followed by its payload:
///
/// | tag | type | payload |
/// |---|---|---|
/// | 0 | null | none |
/// | 1, 2 | false, true | none |
/// | 3 | integer | zig-zag varint |
/// | 4 | double | 8 bytes, IEEE 754 bit pattern, little-endian |
/// | 5 | timestamp | zig-zag varint seconds, varint nanoseconds |
/// | 6 | string | varint length, UTF-8 |
/// | 7 | bytes | varint length, bytes |
/// | 8 | reference | varint length, the full resource name in UTF-8 |
/// | 9 | geo point | two doubles as in tag 4: latitude, longitude |
/// | 10 | array | varint count, the elements |
/// | 11 | map | varint count, then per entry: key as in tag 6 without the tag, value |
///
/// A document is a format byte (1), its create time and update time (as timestamps without
/// tag) and its fields as a map without tag. The name is not stored: it is in the key.
package enum DocumentCodec {
    /// The document format written by this version.
    package static let documentFormat: UInt8 = 1

    /// Encodes a document's times and fields.
    package static func encode(_ document: Document) -> [UInt8] {
        var writer = BinaryWriter(capacity: 64 + document.fields.count * 48)
        write(document, to: &writer)
        return writer.bytes
    }

    /// Appends the encoding of a document's times and fields to `scratch`.
    package static func encode(_ document: Document, into scratch: KeyScratch) {
        var scratch = scratch
        write(document, to: &scratch)
    }

    private static func write(_ document: Document, to writer: inout some ByteSink) {
        writer.appendByte(documentFormat)
        writeTimestamp(document.createTime, to: &writer)
        writeTimestamp(document.updateTime, to: &writer)
        writeMap(document.fields, to: &writer)
    }

    /// Decodes a document that `encode(_:)` wrote, giving it `name`.
    ///
    /// - Throws: `FirestoreError.dataLoss` if the bytes are not a valid encoding.
    package static func decodeDocument(_ bytes: UnsafeRawBufferPointer, name: DocumentName) throws -> Document {
        var reader = BinaryReader(bytes)
        let format = try reader.byte()
        guard format == documentFormat else {
            throw BinaryReader.corrupt("unknown document format \(format) for \(name.path)")
        }
        let createTime = try readTimestamp(from: &reader)
        let updateTime = try readTimestamp(from: &reader)
        let fields = try readMap(from: &reader, depth: 0)
        guard reader.isAtEnd else { throw BinaryReader.corrupt("trailing bytes after \(name.path)") }
        return Document(name: name, fields: fields, createTime: createTime, updateTime: updateTime)
    }

    /// Encodes one value.
    package static func encode(_ value: Value) -> [UInt8] {
        var writer = BinaryWriter()
        writeValue(value, to: &writer)
        return writer.bytes
    }

    /// Decodes one value that `encode(_:)` wrote.
    package static func decodeValue(_ bytes: [UInt8]) throws -> Value {
        try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            let value = try readValue(from: &reader, depth: 0)
            guard reader.isAtEnd else { throw BinaryReader.corrupt("trailing bytes after value") }
            return value
        }
    }

    private static func writeValue(_ value: Value, to writer: inout some ByteSink) {
        switch value {
        case .null: writer.appendByte(0)
        case .boolean(let flag): writer.appendByte(flag ? 2 : 1)
        case .integer(let integer):
            writer.appendByte(3)
            writer.signedVarint(integer)
        case .double(let double):
            writer.appendByte(4)
            writer.fixed64(double.bitPattern)
        case .timestamp(let timestamp):
            writer.appendByte(5)
            writeTimestamp(timestamp, to: &writer)
        case .string(let text):
            writer.appendByte(6)
            writer.lengthPrefixed(text)
        case .bytes(let data):
            writer.appendByte(7)
            data.withUnsafeBytes { writer.lengthPrefixed($0) }
        case .reference(let name):
            writer.appendByte(8)
            writer.lengthPrefixed(name.resourceName)
        case .geoPoint(let point):
            writer.appendByte(9)
            writer.fixed64(point.latitude.bitPattern)
            writer.fixed64(point.longitude.bitPattern)
        case .array(let elements):
            writer.appendByte(10)
            writer.varint(UInt64(elements.count))
            for element in elements { writeValue(element, to: &writer) }
        case .map(let map):
            writer.appendByte(11)
            writeMap(map, to: &writer)
        }
    }

    private static func writeMap(_ map: MapValue, to writer: inout some ByteSink) {
        writer.varint(UInt64(map.count))
        // Indexing (rather than iterating) reads each entry in place, without copying it.
        let entries = map.entries
        for index in entries.indices {
            writer.lengthPrefixed(entries[index].key)
            writeValue(entries[index].value, to: &writer)
        }
    }

    private static func writeTimestamp(_ timestamp: Timestamp, to writer: inout some ByteSink) {
        writer.signedVarint(timestamp.seconds)
        writer.varint(UInt64(timestamp.nanoseconds))
    }

    /// Deeper nesting than any valid document can have means the bytes are corrupt; the bound
    /// also keeps a corrupt input from exhausting the stack.
    private static let maxDecodeDepth = 128

    private static func readValue(from reader: inout BinaryReader, depth: Int) throws -> Value {
        guard depth < maxDecodeDepth else { throw BinaryReader.corrupt("nesting too deep") }
        switch try reader.byte() {
        case 0: return .null
        case 1: return .boolean(false)
        case 2: return .boolean(true)
        case 3: return .integer(try reader.signedVarint())
        case 4: return .double(Double(bitPattern: try reader.fixed64()))
        case 5: return .timestamp(try readTimestamp(from: &reader))
        case 6: return .string(try reader.string())
        case 7: return .bytes(try reader.data())
        case 8:
            let text = try reader.string()
            guard let name = try? DocumentName(resourceName: text) else {
                throw BinaryReader.corrupt("invalid reference '\(text)'")
            }
            return .reference(name)
        case 9:
            let latitude = Double(bitPattern: try reader.fixed64())
            let longitude = Double(bitPattern: try reader.fixed64())
            guard let point = try? GeoPoint(latitude: latitude, longitude: longitude) else {
                throw BinaryReader.corrupt("invalid geo point")
            }
            return .geoPoint(point)
        case 10:
            let count = try reader.varint()
            var elements: [Value] = []
            var remaining = count
            while remaining > 0 {
                elements.append(try readValue(from: &reader, depth: depth + 1))
                remaining -= 1
            }
            return .array(elements)
        case 11: return .map(try readMap(from: &reader, depth: depth + 1))
        case let tag: throw BinaryReader.corrupt("unknown value tag \(tag)")
        }
    }

    private static func readMap(from reader: inout BinaryReader, depth: Int) throws -> MapValue {
        var remaining = try reader.varint()
        var map = MapValue()
        map.reserveCapacity(Int(min(remaining, 64)))
        while remaining > 0 {
            let key = try reader.string()
            map.appendOrSet(key, try readValue(from: &reader, depth: depth + 1))
            remaining -= 1
        }
        return map
    }

    private static func readTimestamp(from reader: inout BinaryReader) throws -> Timestamp {
        let seconds = try reader.signedVarint()
        let nanoseconds = try reader.varint()
        guard nanoseconds < 1_000_000_000, (Timestamp.minSeconds...Timestamp.maxSeconds).contains(seconds) else {
            throw BinaryReader.corrupt("invalid timestamp")
        }
        return Timestamp(uncheckedSeconds: seconds, nanoseconds: Int32(nanoseconds))
    }
}
