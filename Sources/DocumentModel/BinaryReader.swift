/// Reads what `BinaryWriter` wrote, checking every bound: corrupt input throws, never crashes.
struct BinaryReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    static func corrupt(_ what: String) -> FirestoreError {
        FirestoreError(.dataLoss, "Stored document is corrupt: \(what)")
    }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw BinaryReader.corrupt("unexpected end of data") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw BinaryReader.corrupt("varint too long") }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func signedVarint() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func fixed64() throws -> UInt64 {
        guard bytes.count - offset >= 8 else { throw BinaryReader.corrupt("unexpected end of data") }
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8])) }
        offset += 8
        return UInt64(littleEndian: value)
    }

    mutating func length() throws -> Int {
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else { throw BinaryReader.corrupt("length beyond end of data") }
        return Int(length)
    }

    mutating func string() throws -> String {
        let count = try length()
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
    }

    mutating func data() throws -> [UInt8] {
        let count = try length()
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}
