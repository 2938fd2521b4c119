/// Appends bytes to an array: the `ByteSink` that `DocumentCodec` encodes into when the
/// caller keeps the bytes.
struct BinaryWriter: ByteSink {
    var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func appendByte(_ byte: UInt8) { bytes.append(byte) }

    mutating func appendRaw(_ raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }
}

/// Little-endian and variable-length integers and length-prefixed byte strings: the building
/// blocks of the compact document encoding.
extension ByteSink {
    @inlinable mutating func varint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            appendByte(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        appendByte(UInt8(remaining))
    }

    /// A signed integer, zig-zag encoded so small negative numbers stay short.
    @inlinable mutating func signedVarint(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @inlinable mutating func fixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { appendRaw($0) }
    }

    @inlinable mutating func lengthPrefixed(_ text: String) {
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ lengthPrefixed(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        var text = text
        text.withUTF8 { lengthPrefixed(UnsafeRawBufferPointer($0)) }
    }

    @inlinable mutating func lengthPrefixed(_ data: UnsafeRawBufferPointer) {
        varint(UInt64(data.count))
        appendRaw(data)
    }
}
