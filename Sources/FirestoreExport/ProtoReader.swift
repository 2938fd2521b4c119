/// Reads protocol buffers' wire encoding from a byte array, field by field, with the offset of
/// every problem: the counterpart of `ProtoWriter`.
struct ProtoReader {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    private(set) var position: Int
    private let end: Int

    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        position = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    var isAtEnd: Bool { position >= end }

    /// One field's tag.
    struct Tag: Equatable {
        var field: Int
        var type: ProtoWriter.WireType
        /// Where the tag starts.
        var offset: Int
    }

    /// The next tag, or `nil` at the end.
    mutating func nextTag() throws -> Tag? {
        guard !isAtEnd else { return nil }
        let offset = position
        let raw = try varint()
        guard let type = ProtoWriter.WireType(rawValue: UInt8(raw & 7)), raw >> 3 > 0, raw >> 3 <= 536_870_911 else {
            throw ExportError(.unknownTag, "unknown wire type or field in tag \(raw)", offset: offset)
        }
        return Tag(field: Int(raw >> 3), type: type, offset: offset)
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < end else {
                throw ExportError(.truncated, "the entity ends inside a varint", offset: start)
            }
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw ExportError(.malformed, "a varint longer than 10 bytes", offset: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func fixed64() throws -> UInt64 {
        guard end - position >= 8 else {
            throw ExportError(.truncated, "the entity ends inside a 64-bit value", offset: position)
        }
        var result: UInt64 = 0
        for index in 0..<8 { result |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
        position += 8
        return result
    }

    /// The range of a length-delimited field's content, skipped over.
    mutating func lengthDelimited() throws -> Range<Int> {
        let start = position
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw ExportError(.truncated, "a field of \(length) bytes runs past the end of the entity", offset: start)
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// A length-delimited field's content as a string, which must be UTF-8.
    mutating func string() throws -> String {
        let start = position
        let range = try lengthDelimited()
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw ExportError(.malformed, "a string that is not UTF-8", offset: start)
        }
        return text
    }

    /// A length-delimited field's content as bytes.
    mutating func data() throws -> [UInt8] {
        Array(bytes[try lengthDelimited()])
    }

    /// A reader of a length-delimited field's content, at the same offsets.
    mutating func nested() throws -> ProtoReader {
        ProtoReader(bytes, range: try lengthDelimited())
    }

    /// Skips a field of a known type whose value this format ignores.
    mutating func skip(_ tag: Tag) throws {
        switch tag.type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup, .endGroup: throw unknown(tag, in: "this message")
        }
    }

    /// The error for a tag a message does not have.
    func unknown(_ tag: Tag, in message: String) -> ExportError {
        ExportError(
            .unknownTag, "unknown field \(tag.field) (wire type \(tag.type.rawValue)) in \(message)", offset: tag.offset
        )
    }

    /// Checks that `tag` has the wire type the field needs.
    func expect(_ tag: Tag, _ type: ProtoWriter.WireType, in message: String) throws {
        guard tag.type == type else { throw unknown(tag, in: message) }
    }
}
