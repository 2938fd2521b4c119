import Foundation
import Testing

@testable import FirestoreExport

@Suite("LevelDB log format")
struct LogFormatTests {
    @Test func crc32cMatchesTheStandardCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    @Test func recordsOfEverySizeRoundTripAcrossBlocks() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("log")
        // Sizes that end a block exactly, leave a trailer too short for a header, and span blocks.
        let sizes = [0, 1, 100, 32_768 - 7 - 7 - 100 - 1 - 3, 5, 32_761, 100_000, 32_754, 3]
        let records = sizes.enumerated().map { index, size in
            (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
        }
        let writer = try LogWriter(path: path)
        for record in records { try writer.append(record) }
        try writer.close()
        var reader = try LogReader(path: path)
        var read: [[UInt8]] = []
        while let record = try reader.next() { read.append(record.bytes) }
        #expect(read == records)
        #expect(reader.offset == writer.size)
    }

    @Test func aFileCutInsideARecordIsTruncatedAtThatRecord() throws {
        let folder = try TemporaryFolder()
        let path = try writeLog(in: folder, records: [[1, 2, 3], Array(repeating: 9, count: 50_000)])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // The second record starts after the first's 7 + 3 bytes; its last fragment at 32768.
        for (cut, offset) in [(12, 10), (32_768, 10), (40_000, 32_768), (data.count - 1, 32_768)] {
            try data.prefix(cut).write(to: URL(fileURLWithPath: path))
            let error = try readAll(path)
            #expect(error?.code == .truncated, "cut at \(cut)")
            #expect(error?.file == path)
            #expect(error?.offset == offset, "cut at \(cut)")
        }
        try data.prefix(13).write(to: URL(fileURLWithPath: path))  // inside the second header
        #expect(try readAll(path)?.description == "\(path): byte 10: the file ends inside a record header")
    }

    @Test func aChangedByteIsABadChecksumAtItsFragment() throws {
        let folder = try TemporaryFolder()
        let path = try writeLog(in: folder, records: [[1, 2, 3], Array(repeating: 9, count: 40_000)])
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        data[32_768 + 100] ^= 0x01  // in the second record's second fragment
        try data.write(to: URL(fileURLWithPath: path))
        let error = try readAll(path)
        #expect(error?.code == .badChecksum)
        #expect(error?.offset == 32_768)
        #expect(error?.description == "\(path): byte 32768: bad checksum in the record header")
    }

    @Test func anUnknownFragmentTypeIsAnUnknownTag() throws {
        let folder = try TemporaryFolder()
        let path = try writeLog(in: folder, records: [[1, 2, 3]])
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        data[6] = 9
        try data.write(to: URL(fileURLWithPath: path))
        let error = try readAll(path)
        #expect(error?.code == .unknownTag)
        #expect(error?.description == "\(path): byte 0: unknown record type 9")
    }

    private func writeLog(in folder: TemporaryFolder, records: [[UInt8]]) throws -> String {
        let path = folder.file("log")
        let writer = try LogWriter(path: path)
        for record in records { try writer.append(record) }
        try writer.close()
        return path
    }

    /// The error reading every record of `path` ends with, if any.
    private func readAll(_ path: String) throws -> ExportError? {
        var reader = try LogReader(path: path)
        do {
            while try reader.next() != nil {}
            return nil
        } catch let error as ExportError {
            return error
        }
    }
}
