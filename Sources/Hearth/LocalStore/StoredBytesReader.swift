import DocumentModel

/// Reads the fixed-width big-endian fields of the local store's values (`LocalStoreLayout`);
/// any shortfall is `.dataLoss`.
package struct StoredBytesReader {
    private let bytes: [UInt8]
    /// The position of the next unread byte.
    private(set) var offset: Int
    /// What is read, for error messages (made only for one).
    private let what: () -> String

    package init(_ bytes: [UInt8], offset: Int = 0, what: @escaping @autoclosure () -> String) {
        self.bytes = bytes
        self.offset = offset
        self.what = what
    }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset == bytes.count }

    /// The unread bytes.
    package var rest: ArraySlice<UInt8> { bytes[offset...] }

    package func corrupt(_ problem: String) -> FirestoreError {
        FirestoreError(.dataLoss, "The local cache's \(what()) is damaged: \(problem)")
    }

    package mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw corrupt("unexpected end") }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func readUInt64() throws -> UInt64 {
        guard bytes.count - offset >= 8 else { throw corrupt("unexpected end") }
        var value: UInt64 = 0
        for index in offset..<offset + 8 { value = value << 8 | UInt64(bytes[index]) }
        offset += 8
        return value
    }

    package mutating func readUInt32() throws -> UInt32 {
        guard bytes.count - offset >= 4 else { throw corrupt("unexpected end") }
        var value: UInt32 = 0
        for index in offset..<offset + 4 { value = value << 8 | UInt32(bytes[index]) }
        offset += 4
        return value
    }

    package mutating func readBytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else { throw corrupt("unexpected end") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Reads what `LocalStoreLayout.appendTimestamp` wrote.
    package mutating func readTimestamp() throws -> Timestamp {
        let seconds = Int64(bitPattern: try readUInt64())
        let nanoseconds = Int32(bitPattern: try readUInt32())
        do {
            return try Timestamp(seconds: seconds, nanoseconds: nanoseconds)
        } catch {
            throw corrupt("timestamp out of range (\(seconds) s, \(nanoseconds) ns)")
        }
    }
}
