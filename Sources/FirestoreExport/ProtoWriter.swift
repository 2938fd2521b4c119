/// Protocol buffers' wire encoding, the few primitives the export format needs: varints,
/// fixed 64-bit values, length-delimited fields and groups (the entity format is proto2 and
/// uses groups for path elements, points and references).
struct ProtoWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case startGroup = 3
        case endGroup = 4
    }

    mutating func tag(_ field: Int, _ type: WireType) {
        varint(UInt64(field << 3) | UInt64(type.rawValue))
    }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// An `int64` field (negative values take ten bytes, as in protobuf).
    mutating func int64(_ field: Int, _ value: Int64) {
        tag(field, .varint)
        varint(UInt64(bitPattern: value))
    }

    mutating func bool(_ field: Int, _ value: Bool) {
        tag(field, .varint)
        bytes.append(value ? 1 : 0)
    }

    mutating func double(_ field: Int, _ value: Double) {
        tag(field, .fixed64)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    mutating func bytes<Bytes: Collection<UInt8>>(_ field: Int, _ value: Bytes) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ field: Int, _ value: String) {
        bytes(field, value.utf8)
    }

    /// A length-delimited field whose content `body` writes (into a separate buffer, then copied).
    mutating func message(_ field: Int, _ body: (inout ProtoWriter) throws -> Void) rethrows {
        var inner = ProtoWriter()
        try body(&inner)
        bytes(field, inner.bytes)
    }

    /// A group: start tag, what `body` writes, end tag.
    mutating func group(_ field: Int, _ body: (inout ProtoWriter) throws -> Void) rethrows {
        tag(field, .startGroup)
        try body(&self)
        tag(field, .endGroup)
    }
}
