import Foundation
import LevelDB
import Testing

/// With the default options a damaged table block is an error, never wrong data.
@Suite("LevelDB corruption")
struct CorruptionTests {
    /// 3,000 values of 200 random letters (incompressible enough that a flip changes letters
    /// rather than breaking the compression), written out to a table file.
    private func tableOfRandomValues(in folder: TemporaryFolder) throws -> [[UInt8]: [UInt8]] {
        var expected: [[UInt8]: [UInt8]] = [:]
        let db = try Database(path: folder.path)
        for index in 0..<3000 {
            let key = [UInt8](String(format: "key%06d", index))
            let value = (0..<200).map { _ in UInt8.random(in: 97...122) }
            try db.put(key, value)
            expected[key] = value
        }
        try db.close()
        try Database(path: folder.path).close()  // replays the log into a table
        return expected
    }

    @Test("the defaults verify checksums and open with paranoid checks")
    func defaults() {
        #expect(OpenOptions().paranoidChecks)
        #expect(ReadOptions().verifyChecksums)
    }

    @Test("a flipped block is a corruption error on get and in iteration, never a wrong value")
    func flippedBlock() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let expected = try tableOfRandomValues(in: folder)
        let table = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".ldb") })
        let url = URL(fileURLWithPath: folder.path + "/" + table)
        var bytes = try Data(contentsOf: url)
        for index in bytes.count / 2..<bytes.count / 2 + 64 { bytes[index] ^= 0xFF }
        try bytes.write(to: url)

        let db = try Database(path: folder.path)
        defer { try? db.close() }
        var failures = 0
        for (key, value) in expected {
            do {
                #expect(try db.get(key) == value, "wrong value for \(String(decoding: key, as: UTF8.self))")
            } catch let error as LevelDBError {
                #expect(error.code == .corruption)
                failures += 1
            }
        }
        #expect(failures > 0)

        let cursor = try db.makeCursor()
        cursor.seekToFirst()
        while cursor.isValid {
            #expect(expected[cursor.key] == cursor.value)
            cursor.next()
        }
        #expect(throws: LevelDBError.self) { try cursor.checkError() }

        // A scan meets the damage too, and says so instead of ending early in silence.
        var scanned = 0
        let scanError = #expect(throws: LevelDBError.self) {
            try db.forEachEntry(withPrefix: Array("key".utf8)) { key, value in
                #expect(expected[key] == value)
                scanned += 1
            }
        }
        #expect(scanError?.code == .corruption)
        #expect(scanned < expected.count)
    }
}
