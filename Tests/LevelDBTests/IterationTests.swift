import Foundation
import LevelDB
import Testing

@Suite("LevelDB iteration and snapshots")
struct IterationTests {
    /// Keys around the prefix `b`: its neighbours must never appear in a prefix scan.
    static let keys: [[UInt8]] = [
        [0x61], [0x61, 0xFF], [0x62], [0x62, 0x00], [0x62, 0x01], [0x62, 0xFF], [0x62, 0xFF, 0xFF], [0x63], [0x63, 0x00],
    ]

    /// Every entry `forEachEntry` visits, in the order it visits them.
    private func scan(
        _ db: Database, in range: KeyRange, reverse: Bool = false, options: ReadOptions = ReadOptions()
    ) throws -> [(key: [UInt8], value: [UInt8])] {
        var entries: [(key: [UInt8], value: [UInt8])] = []
        try db.forEachEntry(in: range, reverse: reverse, options: options) { entries.append(($0, $1)) }
        return entries
    }

    private func scan(
        _ db: Database, withPrefix prefix: [UInt8], reverse: Bool = false, options: ReadOptions = ReadOptions()
    ) throws -> [(key: [UInt8], value: [UInt8])] {
        try scan(db, in: KeyRange(prefix: prefix), reverse: reverse, options: options)
    }

    private func filledDatabase(_ folder: TemporaryFolder) throws -> Database {
        let db = try Database(path: folder.path)
        for key in IterationTests.keys.shuffled() { try db.put(key, key) }
        return db
    }

    @Test("a prefix scan returns exactly the keys with the prefix, forward and reverse")
    func prefixScan() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try filledDatabase(folder)
        let expected: [[UInt8]] = [[0x62], [0x62, 0x00], [0x62, 0x01], [0x62, 0xFF], [0x62, 0xFF, 0xFF]]
        #expect(try scan(db, withPrefix: [0x62]).map(\.key) == expected)
        #expect(try scan(db, withPrefix: [0x62], reverse: true).map(\.key) == expected.reversed())
        #expect(try scan(db, withPrefix: [0x62, 0xFF]).map(\.key) == [[0x62, 0xFF], [0x62, 0xFF, 0xFF]])
        #expect(try scan(db, withPrefix: [0x63], reverse: true).map(\.key) == [[0x63, 0x00], [0x63]])
        #expect(try scan(db, withPrefix: [0x64]).map(\.key).isEmpty)
        #expect(try scan(db, withPrefix: []).map(\.key) == IterationTests.keys)
        #expect(try scan(db, withPrefix: [], reverse: true).map(\.key) == IterationTests.keys.reversed())
        #expect(try scan(db, withPrefix: [0x62]).map(\.value) == expected)
        try db.close()
    }

    @Test("a range scan is half open")
    func rangeScan() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try filledDatabase(folder)
        let range = KeyRange(from: [0x61, 0xFF], to: [0x62, 0x01])
        #expect(try scan(db, in: range).map(\.key) == [[0x61, 0xFF], [0x62], [0x62, 0x00]])
        #expect(try scan(db, in: range, reverse: true).map(\.key) == [[0x62, 0x00], [0x62], [0x61, 0xFF]])
        #expect(range.contains([0x62]))
        #expect(!range.contains([0x62, 0x01]))
        try db.close()
    }

    @Test("the successor of a prefix skips trailing 0xFF bytes")
    func successor() {
        #expect(KeyRange.successor(ofPrefix: [0x01, 0xFF]) == [0x02])
        #expect(KeyRange.successor(ofPrefix: [0xFF, 0xFF]) == nil)
        #expect(KeyRange.successor(ofPrefix: []) == nil)
        #expect(KeyRange.successor(ofPrefix: [0x00]) == [0x01])
    }

    @Test("a cursor seeks, steps both ways and compares keys")
    func cursor() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try filledDatabase(folder)
        let cursor = try db.makeCursor()
        cursor.seek(to: [0x62, 0x02])
        #expect(cursor.isValid)
        #expect(cursor.key == [0x62, 0xFF])
        #expect(cursor.keyHasPrefix([0x62]))
        #expect(cursor.compareKey(to: [0x62, 0xFF]) == 0)
        #expect(cursor.compareKey(to: [0x63]) < 0)
        cursor.previous()
        #expect(cursor.key == [0x62, 0x01])
        cursor.seekToLast()
        #expect(cursor.key == [0x63, 0x00])
        cursor.next()
        #expect(!cursor.isValid)
        cursor.seekToFirst()
        #expect(cursor.value == [0x61])
        try cursor.checkError()
    }

    @Test("a snapshot keeps reading the state it was taken at")
    func snapshot() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try Database(path: folder.path)
        try db.put([UInt8]("k"), [1])
        let snapshot = try db.snapshot()
        try db.put([UInt8]("k"), [2])
        try db.put([UInt8]("new"), [3])
        let old = ReadOptions(snapshot: snapshot)
        #expect(try db.get([UInt8]("k"), options: old) == [1])
        #expect(try db.get([UInt8]("new"), options: old) == nil)
        #expect(try scan(db, withPrefix: [], options: old).map(\.key) == [[UInt8]("k")])
        #expect(try db.get([UInt8]("k")) == [2])
    }
}
