import DocumentModel

/// Finds where `OrderedKey` components end inside stored keys, without decoding them: an index
/// key is its field prefix, an encoded value and an encoded document path, and scans need to
/// split the last two (see the table in `OrderedKey`).
enum EncodedKeyParsing {
    /// The offset just after the encoded value that starts at `start`.
    static func valueEnd(in key: UnsafeRawBufferPointer, from start: Int) throws -> Int {
        var offset = start
        try skipValue(key, &offset)
        return offset
    }

    /// The offset just after the path segment (a string, or a numeric document id) that
    /// starts at `start`.
    static func pathSegmentEnd(in key: UnsafeRawBufferPointer, from start: Int) throws -> Int {
        var offset = start
        try skipPathSegment(key, &offset)
        return offset
    }

    private static func corrupt() -> FirestoreError {
        FirestoreError(.dataLoss, "Stored index key is corrupt: a value encoding is malformed")
    }

    private static func skip(_ count: Int, _ key: UnsafeRawBufferPointer, _ offset: inout Int) throws {
        guard key.count - offset >= count else { throw corrupt() }
        offset += count
    }

    private static func skipString(_ key: UnsafeRawBufferPointer, _ offset: inout Int) throws {
        while offset < key.count {
            let byte = key[offset]
            offset += 1
            guard byte == 0 else { continue }
            guard offset < key.count else { throw corrupt() }
            let next = key[offset]
            offset += 1
            if next == 0x01 { return }
            guard next == 0xFF else { throw corrupt() }
        }
        throw corrupt()
    }

    /// Skips a numeric document id (`00 02` and 8 bytes) or a string.
    private static func skipPathSegment(_ key: UnsafeRawBufferPointer, _ offset: inout Int) throws {
        if key.count - offset >= 2, key[offset] == OrderedKey.numericIDMarker[0],
            key[offset + 1] == OrderedKey.numericIDMarker[1]
        {
            try skip(10, key, &offset)
        } else {
            try skipString(key, &offset)
        }
    }

    /// Whether the `00 00` end marker starts at `offset`.
    private static func atEnd(_ key: UnsafeRawBufferPointer, _ offset: Int) -> Bool {
        offset + 1 < key.count && key[offset] == 0 && key[offset + 1] == 0
    }

    private static func skipValue(_ key: UnsafeRawBufferPointer, _ offset: inout Int) throws {
        guard offset < key.count else { throw corrupt() }
        let tag = key[offset]
        offset += 1
        switch tag {
        case 0x05, 0x0F: return
        case 0x0A: try skip(1, key, &offset)
        case 0x10: try skip(10, key, &offset)
        case 0x14: try skip(12, key, &offset)
        case 0x19, 0x1E: try skipString(key, &offset)
        case 0x23:
            try skipString(key, &offset)
            try skipString(key, &offset)
            while !atEnd(key, offset) { try skipPathSegment(key, &offset) }
            offset += 2
        case 0x28: try skip(16, key, &offset)
        case 0x30:
            try skip(4, key, &offset)
            let count = key[(offset - 4)..<offset].reduce(0) { $0 << 8 | Int($1) }
            try skip(8 * count, key, &offset)
        case 0x2D:
            while !atEnd(key, offset) { try skipValue(key, &offset) }
            offset += 2
        case 0x32:
            while !atEnd(key, offset) {
                try skipString(key, &offset)
                try skipValue(key, &offset)
            }
            offset += 2
        default: throw corrupt()
        }
    }
}
