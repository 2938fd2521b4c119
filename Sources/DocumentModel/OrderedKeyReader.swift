/// Reads the string, path and integer components that `OrderedKey` wrote, for turning stored
/// keys back into names.
package struct OrderedKeyReader {
    private let bytes: [UInt8]
    /// The position of the next unread byte.
    package private(set) var offset: Int

    package init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset >= bytes.count }

    private func corrupt(_ what: String) -> FirestoreError {
        FirestoreError(.dataLoss, "Stored key is corrupt: \(what)")
    }

    /// Reads one raw byte.
    package mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw corrupt("unexpected end of key") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a string component.
    package mutating func readString() throws -> String {
        String(decoding: try readEscaped(), as: UTF8.self)
    }

    private mutating func readEscaped() throws -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let byte = try readByte()
            guard byte == 0 else {
                result.append(byte)
                continue
            }
            switch try readByte() {
            case 0xFF: result.append(0)
            case 0x01: return result
            default: throw corrupt("bad escape in string component")
            }
        }
    }

    /// Whether the next two bytes are the `00 00` end marker (without consuming them).
    package var atEnd: Bool {
        offset + 1 < bytes.count && bytes[offset] == 0 && bytes[offset + 1] == 0
    }

    /// Reads one id of a path: a numeric document id or a string.
    package mutating func readPathSegment() throws -> String {
        guard bytes.count - offset >= 2, bytes[offset] == OrderedKey.numericIDMarker[0],
            bytes[offset + 1] == OrderedKey.numericIDMarker[1]
        else { return try readString() }
        offset += 2
        return ResourcePath.numericIDSpelling(try readInt64())
    }

    /// Reads a path component: ids up to the `00 00` marker.
    package mutating func readPath() throws -> ResourcePath {
        var segments: [String] = []
        while !atEnd {
            guard !isAtEnd else { throw corrupt("unterminated path") }
            segments.append(try readPathSegment())
        }
        offset += 2
        return ResourcePath(validatedSegments: segments)
    }

    /// Reads 8 big-endian bytes.
    package mutating func readUInt64() throws -> UInt64 {
        guard bytes.count - offset >= 8 else { throw corrupt("unexpected end of key") }
        var value: UInt64 = 0
        for index in offset..<offset + 8 { value = value << 8 | UInt64(bytes[index]) }
        offset += 8
        return value
    }

    /// Reads what `appendDescendingInt64` wrote.
    package mutating func readDescendingInt64() throws -> Int64 {
        Int64(bitPattern: ~(try readUInt64()) ^ (1 << 63))
    }

    /// Reads what `appendInt64` wrote.
    package mutating func readInt64() throws -> Int64 {
        Int64(bitPattern: try readUInt64() ^ (1 << 63))
    }
}
