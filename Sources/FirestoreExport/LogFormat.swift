/// LevelDB's log format, in which Firestore exports store their records: the file is a run of
/// 32 KiB blocks; each record is split into fragments that never cross a block, each with a
/// 7-byte header (masked CRC32C of type and payload, little-endian; payload length, 2 bytes
/// little-endian; type). A block's last 1 to 6 bytes, too short for a header, are zeros.
enum LogFormat {
    static let blockSize = 32_768
    static let headerSize = 7

    /// A fragment's type.
    enum FragmentType: UInt8 {
        /// Zeros: preallocated space or a block's padding, skipped.
        case zero = 0
        case full = 1
        case first = 2
        case middle = 3
        case last = 4
    }
}
