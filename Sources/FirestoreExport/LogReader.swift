import Foundation

/// Reads the records of a file in LevelDB's log format (`LogFormat`) one block at a time, so
/// memory stays constant, checking every fragment's CRC32C.
///
/// Every problem is an `ExportError` naming the file and the byte offset of the fragment:
/// a file that ends inside a header, a fragment or a record is `.truncated`, a checksum that
/// does not match is `.badChecksum`, an unknown fragment type is `.unknownTag`.
///
/// ```swift
/// var reader = try LogReader(path: "output-0")
/// while let record = try reader.next() { print(record.offset, record.bytes.count) }
/// ```
struct LogReader {
    /// One record and the byte offset of its first fragment's header.
    struct Record {
        var bytes: [UInt8]
        var offset: Int
    }

    let path: String
    private let handle: FileHandle
    private var block: [UInt8] = []
    /// The file offset of `block`'s first byte.
    private var blockOffset = 0
    private var position = 0
    private var atEnd = false

    /// Opens the file at `path`; `name` is how errors name it.
    init(path: String, name: String? = nil) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ExportError(.missingMetadata, "cannot open the file", file: name ?? path)
        }
        self.handle = handle
        self.path = name ?? path
    }

    /// The file offset reached: after the last record returned (its size once `next()` returned `nil`).
    var offset: Int { blockOffset + position }

    /// The next record, or `nil` at the end of the file.
    mutating func next() throws -> Record? {
        var record: [UInt8] = []
        var recordOffset: Int?
        while true {
            guard let (type, payload, fragmentOffset) = try nextFragment() else {
                if let recordOffset {
                    throw ExportError(.truncated, "the file ends inside a record", file: path, offset: recordOffset)
                }
                return nil
            }
            switch type {
            case .zero:
                continue
            case .full:
                guard recordOffset == nil else { throw misplaced(type, at: fragmentOffset) }
                return Record(bytes: payload, offset: fragmentOffset)
            case .first:
                guard recordOffset == nil else { throw misplaced(type, at: fragmentOffset) }
                recordOffset = fragmentOffset
                record = payload
            case .middle, .last:
                guard let start = recordOffset else { throw misplaced(type, at: fragmentOffset) }
                record += payload
                if type == .last { return Record(bytes: record, offset: start) }
            }
        }
    }

    private func misplaced(_ type: LogFormat.FragmentType, at offset: Int) -> ExportError {
        ExportError(.malformed, "a fragment of type \(type.rawValue) out of sequence", file: path, offset: offset)
    }

    /// The next fragment (a zero fragment stands for a block's padding), or `nil` at the end.
    private mutating func nextFragment() throws -> (LogFormat.FragmentType, [UInt8], Int)? {
        while block.count - position < LogFormat.headerSize {
            if block.count == LogFormat.blockSize || (block.isEmpty && !atEnd) {
                // A full block's padding, or nothing read yet: on to the next block.
                guard try readBlock() else { return nil }
                continue
            }
            // The file's last, partial block: nothing but zeros may follow the last fragment.
            guard block[position...].allSatisfy({ $0 == 0 }) else {
                throw ExportError(.truncated, "the file ends inside a record header", file: path, offset: offset)
            }
            position = block.count
            return nil
        }
        let start = offset
        let header = block[position..<(position + LogFormat.headerSize)]
        let stored = header.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let length = Int(header[header.startIndex + 4]) | Int(header[header.startIndex + 5]) << 8
        let rawType = header[header.startIndex + 6]
        guard let type = LogFormat.FragmentType(rawValue: rawType) else {
            throw ExportError(.unknownTag, "unknown record type \(rawType)", file: path, offset: start)
        }
        if type == .zero, stored == 0, length == 0 {
            position = block.count  // preallocated zeros: the rest of the block
            return (.zero, [], start)
        }
        let payloadStart = position + LogFormat.headerSize
        guard payloadStart + length <= block.count else {
            let code: ExportError.Code = block.count < LogFormat.blockSize ? .truncated : .malformed
            throw ExportError(
                code,
                "a fragment of \(length) bytes runs past the end of the "
                    + (code == .truncated ? "file" : "block"), file: path, offset: start)
        }
        let payload = Array(block[payloadStart..<(payloadStart + length)])
        let crc = CRC32C.mask(CRC32C.checksum(payload, continuing: CRC32C.checksum(CollectionOfOne(rawType))))
        guard crc == stored else {
            throw ExportError(.badChecksum, "bad checksum in the record header", file: path, offset: start)
        }
        position = payloadStart + length
        return (type, payload, start)
    }

    /// Reads the next block; `false` at the end of the file.
    private mutating func readBlock() throws -> Bool {
        guard !atEnd else { return false }
        blockOffset += block.count
        position = 0
        do {
            block = Array(try handle.read(upToCount: LogFormat.blockSize) ?? Data())
        } catch {
            throw ExportError(.io, "cannot read: \(error.localizedDescription)", file: path, offset: blockOffset)
        }
        if block.count < LogFormat.blockSize { atEnd = true }
        return !block.isEmpty
    }
}
