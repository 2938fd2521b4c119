import Foundation

/// Writes records in LevelDB's log format (`LogFormat`) to a new file, buffering about a
/// megabyte at a time, so memory stays constant however many records are written.
///
/// ```swift
/// let writer = try LogWriter(path: "output-0")
/// try writer.append(entityBytes)
/// try writer.close()
/// ```
final class LogWriter {
    private let handle: FileHandle
    private let path: String
    private var buffer: [UInt8] = []
    /// The bytes written to the file so far, buffered ones included.
    private(set) var size = 0
    private static let flushThreshold = 1 << 20

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw ExportError(.io, "cannot create the file", file: path) }
        self.handle = handle
        self.path = path
        buffer.reserveCapacity(Self.flushThreshold + LogFormat.blockSize)
    }

    /// Appends one record.
    func append(_ record: [UInt8]) throws {
        var start = 0
        var isFirst = true
        repeat {
            let left = LogFormat.blockSize - size % LogFormat.blockSize
            if left < LogFormat.headerSize {
                buffer.append(contentsOf: repeatElement(0, count: left))
                size += left
                continue
            }
            let length = min(record.count - start, left - LogFormat.headerSize)
            let isLast = start + length == record.count
            let type: LogFormat.FragmentType =
                switch (isFirst, isLast) {
                case (true, true): .full
                case (true, false): .first
                case (false, false): .middle
                case (false, true): .last
                }
            appendFragment(type, record[start..<(start + length)])
            start += length
            isFirst = false
        } while start < record.count
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    private func appendFragment(_ type: LogFormat.FragmentType, _ payload: ArraySlice<UInt8>) {
        let crc = CRC32C.mask(CRC32C.checksum(payload, continuing: CRC32C.checksum(CollectionOfOne(type.rawValue))))
        for shift in stride(from: 0, to: 32, by: 8) { buffer.append(UInt8(truncatingIfNeeded: crc >> shift)) }
        buffer.append(UInt8(truncatingIfNeeded: payload.count))
        buffer.append(UInt8(truncatingIfNeeded: payload.count >> 8))
        buffer.append(type.rawValue)
        buffer.append(contentsOf: payload)
        size += LogFormat.headerSize + payload.count
    }

    private func flush() throws {
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw ExportError(
                .io, "cannot write: \(error.localizedDescription)", file: path, offset: size - buffer.count)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, syncs the file to disk and closes it.
    func close() throws {
        try flush()
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw ExportError(.io, "cannot close: \(error.localizedDescription)", file: path)
        }
    }
}
