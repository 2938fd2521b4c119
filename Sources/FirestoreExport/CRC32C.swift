/// CRC-32C (Castagnoli), the checksum of LevelDB's log format, with LevelDB's masking.
///
/// A log record's header stores `masked(crc(type byte + payload))`: masking keeps a CRC of data
/// that itself holds CRCs from being trivially predictable.
///
/// ```swift
/// CRC32C.checksum(Array("123456789".utf8))   // 0xE3069283
/// ```
enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }

    /// Continues `crc` (the result of an earlier call, or 0) over `bytes`.
    static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes { value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8) }
        }
        return ~value
    }

    private static let maskDelta: UInt32 = 0xA282_EAD8

    /// LevelDB's mask of a CRC, as stored in a record header.
    static func mask(_ crc: UInt32) -> UInt32 {
        ((crc >> 15) | (crc << 17)) &+ maskDelta
    }
}
