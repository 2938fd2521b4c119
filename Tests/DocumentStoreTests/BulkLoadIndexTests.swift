import DocumentModel
import DocumentStore
import Foundation
import LevelDB
import Testing

/// A bulk load writes the index keys of the documents it creates last, in key order, sorted in
/// memory or (beyond its sort memory) through sorted runs in a temporary file: the index it
/// leaves must be exactly the one commits of the same documents leave.
@Suite("Bulk load index")
struct BulkLoadIndexTests {
    /// The documents to load, in order: maps, arrays with a repeated element, a subcollection
    /// group, and documents added twice (the second time after others, so that their first
    /// keys may already be in a sorted run).
    private static func documents(_ fixture: StoreFixture) throws -> [(DocumentName, MapValue)] {
        var documents: [(DocumentName, MapValue)] = []
        for number in 0..<200 {
            let fields: MapValue = [
                "n": .integer(Int64(number * 7919 % 200)), "email": .string("user\(number)@example.com"),
                "tags": .array([.string("t\(number % 3)"), .string("t\(number % 3)"), .integer(Int64(number))]),
                "profile": .map(["age": .integer(Int64(number % 90)), "city": .string("c\(number % 11)")]),
            ]
            documents.append((try fixture.name("users/u\(number)"), fields))
            if number % 50 == 7 {
                documents.append((try fixture.name("users/u\(number)/notes/n"), ["text": .string("note \(number)")]))
            }
        }
        // Added again: one replaced with other fields, one emptied, one with the same fields.
        documents.append((try fixture.name("users/u3"), ["n": 1000, "tags": .array([.string("new")])]))
        documents.append((try fixture.name("users/u150"), [:]))
        documents.append(documents[10])
        return documents
    }

    /// The index and index-group entries of a closed store, as hex keys.
    private static func indexEntries(_ folder: String) throws -> [String] {
        let database = try Database(path: folder)
        defer { try? database.close() }
        var keys: [String] = []
        for table in [StorageKeys.Table.index, .indexGroups] {
            for (key, _) in try database.entries(withPrefix: [table.rawValue]) {
                keys.append(key.map { String(format: "%02x", $0) }.joined())
            }
        }
        return keys
    }

    @Test(arguments: [512, DocumentStore.bulkLoadSortBytes])
    func leavesTheIndexThatCommitsOfTheSameDocumentsLeave(sortBytes: Int) throws {
        let loaded = try StoreFixture()
        let documents = try Self.documents(loaded)
        try loaded.store.bulkLoad(into: loaded.database, replacing: false, batchBytes: 2048, sortBytes: sortBytes) {
            loader in
            for (name, fields) in documents { try loader.add(name, fields: fields) }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: loaded.folder).filter { $0.hasSuffix(".sort") }
        #expect(leftovers.isEmpty, "the sort's temporary file is unlinked")

        let query = try loaded.query(
            "users", filter: .field(try FieldPath("profile.city"), .equal, "c4"), orderBy: [try desc("n")])
        let names = try loaded.store.runQuery(query).documents.map(\.name.path.description)
        let expected = (0..<200).filter { $0 % 11 == 4 && $0 != 3 && $0 != 150 }
            .sorted { $0 * 7919 % 200 > $1 * 7919 % 200 }.map { "users/u\($0)" }
        #expect(names == expected)

        let committed = try StoreFixture()
        var last: [String: (DocumentName, MapValue)] = [:]
        var order: [String] = []
        for (name, fields) in documents {
            if last[name.path.description] == nil { order.append(name.path.description) }
            last[name.path.description] = (name, fields)
        }
        for path in order {
            let (name, fields) = last[path]!
            try committed.store.commit([.set(name, fields: fields)])
        }
        try loaded.store.close()
        try committed.store.close()
        let loadedIndex = try Self.indexEntries(loaded.folder)
        #expect(loadedIndex.count > 1000)
        #expect(loadedIndex == (try Self.indexEntries(committed.folder)))
    }
}
