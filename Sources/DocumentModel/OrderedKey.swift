/// An order-preserving byte encoding of values, strings and paths for LevelDB keys: encoded
/// bytes compare (bytewise) exactly as the values compare in Firestore's order, and equal values
/// (`1` and `1.0`) encode to equal bytes. Every encoding is self-delimiting, so tuples of them
/// concatenate and still order component by component.
///
/// Components:
/// - a **string** (or byte string) is its bytes with `00` escaped as `00 FF`, then `00 01`;
///   a shorter string sorts before its extensions because `00 01` is below every byte that can follow;
/// - a **path** is its segments, then `00 00`; so a document's key prefix sorts before the keys
///   of its subcollections. A segment is a string, except a numeric document id (`__id<int64>__`,
///   see `ResourcePath.numericID(_:)`), which is `00 02` and its integer as 8 order-preserving
///   bytes: above the `00 00` end, below every string (no id is empty, so none starts `00 01`;
///   one starting with a zero byte starts `00 FF`), and in integer order, as Firestore sorts them;
/// - a **value** is a type tag in Firestore's type order, then its payload.
///
/// | tag | type | payload |
/// |---|---|---|
/// | 05 | null | none |
/// | 0A | boolean | `00` or `01` |
/// | 0F | NaN | none |
/// | 10 | number | 8-byte order-preserving double `D`, then 2 bytes `r` (see below) |
/// | 14 | timestamp | 8-byte order-preserving seconds, 4-byte nanoseconds |
/// | 19 | string | string |
/// | 1E | bytes | string |
/// | 23 | reference | project and database as strings, then the path |
/// | 28 | geo point | two order-preserving doubles |
/// | 2D | array | elements, then `00 00` |
/// | 30 | vector | 4-byte length, then per element 8 order-preserving bytes (`-0.0` below `0.0`, NaN above infinity) |
/// | 32 | map | per entry key (string) and value, then `00 00` |
///
/// A number is encoded exactly: `D` is the largest double not above it and `r` the integer
/// remainder (`0 ≤ r < 2048`; zero for doubles). Integers beyond 2^53 keep their order and
/// equal the double of the same value.
package struct OrderedKey: Sendable, Hashable, ByteSink {
    /// The encoded bytes.
    package var bytes: [UInt8] { storage }

    // Internal storage, so that the small appends below can be inlined into callers that
    // build many keys (the index entries of every commit).
    @usableFromInline var storage: [UInt8]

    package init(capacity: Int = 32) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// The number of bytes so far.
    @inlinable package var count: Int { storage.count }

    /// Appends a single raw byte, such as a table tag.
    @inlinable package mutating func appendByte(_ byte: UInt8) { storage.append(byte) }

    /// Appends raw bytes.
    @inlinable package mutating func appendRaw(_ bytes: UnsafeRawBufferPointer) { storage.append(contentsOf: bytes) }

    /// Appends bytes that are already encoded components (such as an encoded path).
    @inlinable package mutating func appendEncoded(_ encoded: [UInt8]) { storage.append(contentsOf: encoded) }

    /// Drops every byte after the first `count`, keeping the buffer: for building many keys
    /// that share a prefix in one buffer.
    @inlinable package mutating func truncate(to count: Int) {
        storage.removeLast(storage.count - count)
    }

    /// The two bytes that start a numeric document id in a path.
    package static let numericIDMarker: [UInt8] = [0x00, 0x02]

    /// The encoding of a single value.
    package static func encoding(of value: Value) -> [UInt8] {
        var key = OrderedKey()
        key.appendValue(value)
        return key.storage
    }
}

/// The order-preserving key components, on any byte sink.
extension ByteSink {
    /// Appends a string component.
    @inlinable package mutating func appendString(_ text: String) {
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ appendEscaped(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        var text = text
        text.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a byte-string component.
    @inlinable package mutating func appendBytes(_ data: [UInt8]) {
        data.withUnsafeBytes { appendEscaped($0) }
    }

    @inlinable mutating func appendEscaped(_ data: UnsafeRawBufferPointer) {
        // Copies the runs between zero bytes in bulk (ids and names rarely hold a zero byte).
        if let base = data.baseAddress {
            var start = 0
            if OrderedKeyEscaping.containsZero(data) {
                let bytes = base.assumingMemoryBound(to: UInt8.self)
                for index in 0..<data.count where bytes[index] == 0 {
                    appendRaw(UnsafeRawBufferPointer(start: base + start, count: index + 1 - start))
                    appendByte(0xFF)
                    start = index + 1
                }
            }
            appendRaw(UnsafeRawBufferPointer(start: base + start, count: data.count - start))
        }
        appendByte(0x00)
        appendByte(0x01)
    }

    /// Appends one collection or document id of a path: a numeric id as `00 02` and its
    /// integer, any other id as a string.
    @inlinable package mutating func appendPathSegment(_ id: String) {
        if let number = ResourcePath.numericID(id) {
            appendByte(0x00)
            appendByte(0x02)
            appendInt64(number)
        } else {
            appendString(id)
        }
    }

    /// Appends the segments of a path without the end marker: a prefix of every path below `path`.
    @inlinable package mutating func appendPathSegments(_ path: ResourcePath) {
        for segment in path.segments { appendPathSegment(segment) }
    }

    /// Appends a path component: its segments, then `00 00`.
    @inlinable package mutating func appendPath(_ path: ResourcePath) {
        appendPathSegments(path)
        appendEnd()
    }

    /// Appends the `00 00` marker that ends a path, an array or a map.
    @inlinable package mutating func appendEnd() {
        appendByte(0x00)
        appendByte(0x00)
    }

    /// Appends 8 big-endian bytes.
    @inlinable package mutating func appendUInt64(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { appendRaw($0) }
    }

    /// Appends a signed integer so that smaller integers sort first.
    @inlinable package mutating func appendInt64(_ value: Int64) {
        appendUInt64(UInt64(bitPattern: value) ^ (1 << 63))
    }

    /// Appends a signed integer so that larger integers sort first.
    @inlinable package mutating func appendDescendingInt64(_ value: Int64) {
        appendUInt64(~(UInt64(bitPattern: value) ^ (1 << 63)))
    }

    /// Appends a value component.
    @inlinable package mutating func appendValue(_ value: Value) {
        switch value {
        case .null:
            appendByte(0x05)
        case .boolean(let flag):
            appendByte(0x0A)
            appendByte(flag ? 1 : 0)
        case .integer(let integer):
            appendNumber(integer: integer)
        case .double(let double):
            if double.isNaN {
                appendByte(0x0F)
            } else {
                appendByte(0x10)
                appendOrderedDouble(double)
                appendByte(0)
                appendByte(0)
            }
        case .timestamp(let timestamp):
            appendByte(0x14)
            appendInt64(timestamp.seconds)
            withUnsafeBytes(of: UInt32(timestamp.nanoseconds).bigEndian) { appendRaw($0) }
        case .string(let text):
            appendByte(0x19)
            appendString(text)
        case .bytes(let data):
            appendByte(0x1E)
            appendBytes(data)
        case .reference(let name):
            appendByte(0x23)
            appendString(name.databaseID.project)
            appendString(name.databaseID.database)
            appendPath(name.path)
        case .geoPoint(let point):
            appendByte(0x28)
            appendOrderedDouble(point.latitude, keepingZeroSign: true)
            appendOrderedDouble(point.longitude, keepingZeroSign: true)
        case .array(let elements):
            appendByte(0x2D)
            for element in elements { appendValue(element) }
            appendEnd()
        case .map(let map):
            if let elements = map.vectorElements { return appendVector(elements) }
            appendByte(0x32)
            for entry in map.entries {
                appendString(entry.key)
                appendValue(entry.value)
            }
            appendEnd()
        }
    }

    /// A vector: its length first (shorter vectors sort first), then its elements in Java's
    /// `Double.compare` order, as `Value.compareVectorElements`.
    @inlinable mutating func appendVector(_ elements: [Double]) {
        appendByte(0x30)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: elements.count).bigEndian) { appendRaw($0) }
        for element in elements {
            let bits = element.isNaN ? Double.nan.bitPattern : element.bitPattern
            appendUInt64(bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63))
        }
    }

    /// An integer as the largest double `d ≤ integer` and the remainder `integer - d`.
    @inlinable mutating func appendNumber(integer: Int64) {
        var floor = Double(integer)
        if floor >= 0x1p63 || Int64(floor) > integer { floor = floor.nextDown }
        let remainder = UInt16(integer &- Int64(floor))
        appendByte(0x10)
        appendOrderedDouble(floor)
        appendByte(UInt8(remainder >> 8))
        appendByte(UInt8(remainder & 0xFF))
    }

    /// A double's bits arranged so that bytewise order is numeric order (`-0.0` as `0.0`, or
    /// just before it with `keepingZeroSign`, as geo point coordinates order).
    @inlinable mutating func appendOrderedDouble(_ double: Double, keepingZeroSign: Bool = false) {
        let normalized = double == 0 && !keepingZeroSign ? 0.0 : double
        let bits = normalized.bitPattern
        appendUInt64(bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63))
    }
}

/// The check behind string escaping, eight bytes at a time.
@usableFromInline enum OrderedKeyEscaping {
    /// Whether `data` holds a zero byte (a word has one when `(w - 0x01…01) & ~w & 0x80…80` is
    /// not zero).
    @inlinable static func containsZero(_ data: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= data.count {
            let word = data.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if (word &- ones) & ~word & highs != 0 { return true }
            index += 8
        }
        while index < data.count {
            if data[index] == 0 { return true }
            index += 1
        }
        return false
    }
}
