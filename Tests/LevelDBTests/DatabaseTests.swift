import Foundation
import LevelDB
import Testing

@Suite("LevelDB database")
struct DatabaseTests {
    @Test("put, get and delete round-trip bytes, including empty values and zero bytes")
    func putGetDelete() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try Database(path: folder.path)
        try db.put([UInt8]("a"), [0, 1, 2, 0])
        try db.put([UInt8]("empty"), [])
        #expect(try db.get([UInt8]("a")) == [0, 1, 2, 0])
        #expect(try db.get([UInt8]("empty")) == [])
        #expect(try db.get([UInt8]("missing")) == nil)
        try db.delete([UInt8]("a"))
        #expect(try db.get([UInt8]("a")) == nil)
        try db.delete([UInt8]("never-there"))
        try db.close()
    }

    @Test("data persists across close and reopen")
    func persistence() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        do {
            let db = try Database(path: folder.path)
            try db.put([UInt8]("k"), [UInt8]("v"), sync: true)
            try db.close()
        }
        let reopened = try Database(path: folder.path)
        #expect(try reopened.get([UInt8]("k")) == [UInt8]("v"))
        try reopened.close()
    }

    @Test("a write batch applies all of its operations together")
    func writeBatch() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try Database(path: folder.path)
        try db.put([UInt8]("gone"), [1])
        let batch = WriteBatch()
        batch.put([UInt8]("x"), [1])
        batch.put([UInt8]("y"), [2])
        batch.delete([UInt8]("gone"))
        #expect(batch.count == 3)
        try db.write(batch, sync: true)
        #expect(try db.get([UInt8]("x")) == [1])
        #expect(try db.get([UInt8]("y")) == [2])
        #expect(try db.get([UInt8]("gone")) == nil)
        batch.clear()
        #expect(batch.count == 0)
        try db.close()
    }

    @Test("a second open of the same folder fails with a message naming the folder")
    func folderInUse() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try Database(path: folder.path)
        let error = #expect(throws: LevelDBError.self) { try Database(path: folder.path) }
        #expect(error?.code == .databaseInUse)
        #expect(error?.message.contains(folder.path) == true)
        #expect(error?.message.contains("in use") == true)
        try db.close()
        let again = try Database(path: folder.path)
        try again.close()
    }

    @Test("a missing folder without createIfMissing reports LevelDB's own message")
    func missingFolder() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        var options = OpenOptions()
        options.createIfMissing = false
        let error = #expect(throws: LevelDBError.self) { try Database(path: folder.path, options: options) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("does not exist") == true)
    }

    @Test("operations after close throw .closed; close refuses while a cursor is open")
    func closeRules() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try Database(path: folder.path)
        var cursor: Cursor? = try db.makeCursor()
        let busy = #expect(throws: LevelDBError.self) { try db.close() }
        #expect(busy?.code == .busy)
        #expect(cursor?.isValid == false)
        cursor = nil
        try db.close()
        try db.close()
        let closed = #expect(throws: LevelDBError.self) { try db.get([UInt8]("k")) }
        #expect(closed?.code == .closed)
    }

    @Test("every open option is accepted, including no cache, no bloom filter and no compression")
    func options() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        var options = OpenOptions()
        options.paranoidChecks = true
        options.blockCacheBytes = nil
        options.bloomFilterBitsPerKey = nil
        options.compression = false
        options.writeBufferBytes = 64 << 10
        let db = try Database(path: folder.path, options: options)
        for index in 0..<2000 { try db.put(Array("key\(index)".utf8), Array(repeating: 7, count: 100)) }
        try db.compact()
        #expect(try db.get([UInt8]("key1999"))?.count == 100)
        try db.close()
        options.errorIfExists = true
        #expect(throws: LevelDBError.self) { try Database(path: folder.path, options: options) }
    }

    @Test("reopen keeps the data, waits for open snapshots (busy while one stays open) and serves reads after")
    func reopenInPlace() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let db = try Database(path: folder.path)
        try db.put([UInt8]("k"), [UInt8]("v"))
        do {
            let snapshot = try db.snapshot()
            #expect(throws: LevelDBError.self) { try db.reopen(waitingUpTo: .milliseconds(50)) }
            #expect(try db.get([UInt8]("k"), options: ReadOptions(snapshot: snapshot)) == [UInt8]("v"))
        }
        try db.reopen(waitingUpTo: .milliseconds(50))
        #expect(db.writeFailure == nil)
        #expect(try db.get([UInt8]("k")) == [UInt8]("v"))
        try db.put([UInt8]("k2"), [UInt8]("v2"))
        try db.close()
        let again = try Database(path: folder.path)
        #expect(try again.get([UInt8]("k2")) == [UInt8]("v2"))
        try again.close()
    }
}
