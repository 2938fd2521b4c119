import DocumentModel
import Foundation
import Hearth
import HearthPersistence
import LevelDB
import QueryEngine
import Testing

/// The local cache's field index (#14, `CacheIndex`): both stores keep one entry per field value
/// and array element of each cached document, through `apply`, eviction, closing and reopening,
/// and `documents(indexedBy:...)` lists the documents of a range of values in index order,
/// stopping at a limit.
@Suite("Local store field index")
struct LocalStoreIndexTests {
    typealias Kind = LocalStoreTests.Kind

    static func indexEntryCount(_ store: any LocalStore) throws -> Int {
        if let memory = store as? MemoryLocalStore { return memory.indexEntryCount }
        return try (store as! PersistentLocalStore).indexEntryCount()
    }

    /// The number of index entries the cached documents of `store` under `users` and `docs` must have.
    static func expectedEntryCount(_ store: any LocalStore) throws -> Int {
        var count = 0
        for collection in ["users", "docs"] {
            for document in try store.documents(
                in: LocalStoreTests.database, parent: .root, collectionID: collection, allDescendants: false)
            {
                count += CacheIndex.entries(of: document).count
            }
        }
        return count
    }

    static func user(_ number: Int, age: Value) throws -> Document {
        try LocalStoreTests.document(
            "users/u\(number < 10 ? "0" : "")\(number)",
            fields: ["age": age, "tags": .array([.integer(Int64(number % 3)), .string("x"), .string("x")]),
                     "address": .map(["city": .string(number % 2 == 0 ? "Paris" : "Oslo")])])
    }

    static func entries(_ documents: [Document], at seconds: Int64 = 10) throws -> LocalStoreChange {
        let time = try LocalStoreTests.time(seconds)
        return LocalStoreChange(entries: Dictionary(uniqueKeysWithValues: documents.map { ($0.name, RemoteEntry(document: $0, readTime: time)) }))
    }

    static func scan(
        _ field: String, _ ranges: ValueRanges, kind: IndexKind = .value, limit: Int? = nil
    ) throws -> CacheIndexScan {
        CacheIndexScan(
            database: LocalStoreTests.database, collectionID: "users", field: try DocumentModel.FieldPath(field), kind: kind,
            ranges: ranges, limit: limit)
    }

    /// The ids `scan` lists, every document included and accepted.
    static func ids(_ store: any LocalStore, _ scan: CacheIndexScan) throws -> [String] {
        try store.documents(indexedBy: scan, including: { _ in true }, accepting: { _ in true }).map { $0.name.path.segments.last! }
    }

    @Test(arguments: Kind.allCases)
    func indexFollowsTheEntries(_ kind: Kind) throws {
        try LocalStoreTests.withStore(kind) { store, _ in
            // Ages 0...4 in turn; u05 has a string age, u06 none.
            var users = try (0..<20).map { try Self.user($0, age: .integer(Int64($0 % 5))) }
            users[5] = try Self.user(5, age: .string("five"))
            users[6].fields = ["tags": .array([])]
            try store.apply(try Self.entries(users))
            #expect(try Self.indexEntryCount(store) == (try Self.expectedEntryCount(store)))
            #expect(try Self.indexEntryCount(store) > 0)

            // One value: its documents in name order.
            #expect(try Self.ids(store, try Self.scan("age", .points([.integer(2)]))) == ["u02", "u07", "u12", "u17"])
            // A range of numbers: by value, then name; the string age is another type.
            let atLeastThree = ValueTypeRanges.sameType(as: .integer(0)).intersection(
                .between(OrderedKey.encoding(of: .integer(3)), nil))
            #expect(try Self.ids(store, try Self.scan("age", atLeastThree)) == ["u03", "u08", "u13", "u18", "u04", "u09", "u14", "u19"])
            // Backwards.
            var backwards = try Self.scan("age", atLeastThree)
            backwards.reverse = true
            #expect(try Self.ids(store, backwards) == ["u19", "u14", "u09", "u04", "u18", "u13", "u08", "u03"])
            backwards.limit = 3
            #expect(try Self.ids(store, backwards) == ["u19", "u14", "u09"])
            // Nested fields, and array elements (each document once, though "x" appears twice in it).
            #expect(try Self.ids(store, try Self.scan("address.city", .points([.string("Oslo")]))).count == 10)
            #expect(try Self.ids(store, try Self.scan("tags", .points([.string("x")]), kind: .element)).count == 19)
            #expect(
                try Self.ids(store, try Self.scan("tags", .points([.integer(0), .integer(1)]), kind: .element))
                    == ["u00", "u03", "u09", "u12", "u15", "u18", "u01", "u04", "u07", "u10", "u13", "u16", "u19"])

            // A limit stops the scan once enough documents were accepted, and the ones refused
            // by name or by contents do not count.
            var read: [String] = []
            let limited = try store.documents(
                indexedBy: try Self.scan("age", .points([.integer(2)]), limit: 1),
                including: { $0.path.segments.last != "u02" },
                accepting: { document in
                    read.append(document.name.path.segments.last!)
                    return document.name.path.segments.last != "u07"
                }
            ).map { $0.name.path.segments.last! }
            #expect(limited == ["u12"])
            #expect(read == ["u07", "u12"])

            // An update moves the document between values; a deletion (a known-missing entry) and
            // a document that loses its fields leave no entries.
            let time = try LocalStoreTests.time(20)
            var moved = users[2]
            moved.fields.setValue(.integer(4), at: try DocumentModel.FieldPath("age"))
            var emptied = users[3]
            emptied.fields = [:]
            try store.apply(LocalStoreChange(entries: [
                moved.name: RemoteEntry(document: moved, readTime: time),
                users[7].name: RemoteEntry(document: nil, readTime: time),
                emptied.name: RemoteEntry(document: emptied, readTime: time),
            ]))
            #expect(try Self.ids(store, try Self.scan("age", .points([.integer(2)]))) == ["u12", "u17"])
            #expect(try Self.ids(store, try Self.scan("age", .points([.integer(4)]))) == ["u02", "u04", "u09", "u14", "u19"])
            #expect(try Self.indexEntryCount(store) == (try Self.expectedEntryCount(store)))
            // Writing the same documents again changes nothing.
            try store.apply(try Self.entries([moved, users[4]], at: 30))
            #expect(try Self.indexEntryCount(store) == (try Self.expectedEntryCount(store)))
        }
    }

    @Test(arguments: Kind.allCases)
    func evictionRemovesIndexEntries(_ kind: Kind) throws {
        let limit: Int64 = 8_000
        try LocalStoreTests.withStore(kind, sizeBytes: limit) { store, folder in
            let padding = Value.string(String(repeating: "x", count: 500))
            for number in 0..<40 {
                var user = try Self.user(number, age: .integer(Int64(number)))
                user.fields.setValue(padding, at: try DocumentModel.FieldPath("padding"))
                try store.apply(try Self.entries([user], at: Int64(number + 10)))
            }
            let kept = try store.documents(in: LocalStoreTests.database, parent: .root, collectionID: "users", allDescendants: false)
            #expect(kept.count < 20)
            #expect(try Self.indexEntryCount(store) == (try Self.expectedEntryCount(store)))
            let everyAge = ValueTypeRanges.sameType(as: .integer(0))
            #expect(try Self.ids(store, try Self.scan("age", everyAge)) == kept.map { $0.name.path.segments.last! })

            guard kind == .persistent else { return }
            // Eviction at open (a smaller limit) too.
            try store.close()
            let smaller = try PersistentLocalStore(path: folder, sizeBytes: 2_000)
            defer { try? smaller.close() }
            #expect(try Self.indexEntryCount(smaller) == (try Self.expectedEntryCount(smaller)))
            let left = try smaller.documents(
                in: LocalStoreTests.database, parent: .root, collectionID: "users", allDescendants: false)
            #expect(left.count < kept.count)
            #expect(try Self.ids(smaller, try Self.scan("age", everyAge)) == left.map { $0.name.path.segments.last! })
        }
    }

    @Test func indexSurvivesReopening() throws {
        let folder = LocalStoreTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try PersistentLocalStore(path: folder, sizeBytes: -1)
        try store.apply(try Self.entries(try (0..<10).map { try Self.user($0, age: .integer(Int64($0 % 2))) }))
        let count = try Self.indexEntryCount(store)
        try store.close()

        let reopened = try PersistentLocalStore(path: folder, sizeBytes: -1)
        #expect(try Self.indexEntryCount(reopened) == count)
        #expect(try Self.ids(reopened, try Self.scan("age", .points([.integer(1)]))) == ["u01", "u03", "u05", "u07", "u09"])
        try reopened.close()

        // Cleared, a cache starts with no index.
        try PersistentLocalStore.destroy(path: folder)
        let cleared = try PersistentLocalStore(path: folder, sizeBytes: -1)
        #expect(try Self.indexEntryCount(cleared) == 0)
        #expect(try Self.ids(cleared, try Self.scan("age", .points([.integer(1)]))).isEmpty)
        try cleared.close()
    }

    @Test func olderCacheGetsTheIndexWhenOpened() throws {
        let folder = LocalStoreTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try PersistentLocalStore(path: folder, sizeBytes: -1)
        let record = TargetRecord(resumeToken: [7], snapshotVersion: try LocalStoreTests.time(5))
        try store.apply(try Self.entries(try (0..<10).map { try Self.user($0, age: .integer(Int64($0 % 2))) }))
        try store.apply(LocalStoreChange(targets: ["t": record]))
        let count = try Self.indexEntryCount(store)
        try store.close()

        // Made a cache of layout 2, before the index: no index entries.
        let database = try LevelDB.Database(path: folder)
        let batch = LevelDB.WriteBatch()
        try database.forEachEntry(withPrefix: [CacheIndex.tag]) { key, _ in batch.delete(key) }
        batch.put(LocalStoreLayout.formatKey, LocalStoreLayout.encodeInteger(2))
        try database.write(batch)
        try database.close()

        let reopened = try PersistentLocalStore(path: folder, sizeBytes: -1)
        #expect(try Self.indexEntryCount(reopened) == count)
        #expect(try Self.ids(reopened, try Self.scan("age", .points([.integer(0)]))) == ["u00", "u02", "u04", "u06", "u08"])
        // Layout 2's target records stay (only layout 1's had to go).
        #expect(try reopened.target("t") == record)
        try reopened.close()

        let upgraded = try LevelDB.Database(path: folder)
        defer { try? upgraded.close() }
        #expect(try upgraded.get(LocalStoreLayout.formatKey) == LocalStoreLayout.encodeInteger(LocalStoreLayout.format))
    }

    @Test func closedMemoryStoreForgetsItsIndex() throws {
        let store = MemoryLocalStore()
        try store.apply(try Self.entries([try Self.user(1, age: .integer(1))]))
        #expect(store.indexEntryCount > 0)
        try store.close()
        #expect(store.indexEntryCount == 0)
        LocalStoreTests.expectError(.failedPrecondition) {
            _ = try Self.ids(store, try Self.scan("age", .points([.integer(1)])))
        }
    }
}
