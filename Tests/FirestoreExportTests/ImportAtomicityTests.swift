import DocumentModel
import DocumentStore
import Foundation
import LevelDB
import Testing

@testable import FirestoreExport

/// An import is all or nothing, merging or not: a failure after batches were written, or the
/// process dying mid-import, leaves every stored entry (documents and their versions, the
/// expiry queue, the index) as it was, and reads never see a document of an unfinished import.
@Suite("Import atomicity")
struct ImportAtomicityTests {
    private let database = GoogleFixture.database

    /// The data folder's documents, expiry-queue and index entries (hex key → value), read with
    /// the store closed; the metadata (last-commit reservation) and the catalog of index groups
    /// (an import may add a group, which is harmless) are left out.
    private func storedEntries(_ path: String) throws -> [String: [UInt8]] {
        let database = try Database(path: path)
        defer { try? database.close() }
        var entries: [String: [UInt8]] = [:]
        try database.forEachEntry(in: KeyRange(from: [StorageKeys.Table.documents.rawValue], to: [0x05])) {
            key, value in
            entries[key.map { String(format: "%02x", $0) }.joined()] = value
        }
        return entries
    }

    /// A store with documents the fixture overwrites (`t/ints`), one it does not (`k/keep`),
    /// an older version and a deletion (so the expiry queue has entries), closed again.
    private func seededStore(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("data")
        let store = try DocumentStore(path: path)
        try store.commit([
            .set(GoogleFixture.name("t/ints"), fields: ["old": true, "n": 1]),
            .set(GoogleFixture.name("k/keep"), fields: ["n": 2]),
            .set(GoogleFixture.name("k/gone"), fields: ["n": 3]),
        ])
        try store.commit([.set(GoogleFixture.name("k/keep"), fields: ["n": 4]), .delete(GoogleFixture.name("k/gone"))])
        try store.close()
        return path
    }

    private func documents(_ store: DocumentStore) throws -> [String: MapValue] {
        var documents: [String: MapValue] = [:]
        try store.forEachDocument(in: database) { documents[$0.name.path.description] = $0.fields }
        return documents
    }

    private func namesWhere(_ field: String, equals value: Value, in store: DocumentStore) throws -> [String] {
        let query = Query(
            database: database, parent: .root,
            structured: StructuredQuery(
                from: .collection("t"), filter: .field(try FieldPath(field), .equal, value)))
        return try store.runQuery(query).documents.map(\.name.path.description)
    }

    @Test func aMergeFailingAfterItsDocumentsWereWrittenLeavesEveryEntryAsItWas() throws {
        let folder = try TemporaryFolder()
        let path = try seededStore(folder)
        let before = try storedEntries(path)
        // The export ends early at a record boundary: found only after every document it has
        // was loaded (in batches of one document each).
        let export = folder.file("export")
        try FileManager.default.copyItem(atPath: GoogleFixture.folder, toPath: export)
        let (damaged, expected) = try BadExport.truncatedAtARecordBoundary.apply(to: export)
        let store = try DocumentStore(path: path)
        var importer = StoreImporter(database: database, mode: .merge)
        importer.batchBytes = 1
        #expect {
            try importer.run(ExportReader(path: damaged), into: store)
        } throws: { ($0 as? ExportError)?.description == expected.description }
        #expect(try documents(store) == ["t/ints": ["old": true, "n": 1], "k/keep": ["n": 4]])
        #expect(try namesWhere("old", equals: true, in: store) == ["t/ints"])
        #expect(try namesWhere("a", equals: 0, in: store).isEmpty)
        try store.close()
        #expect(try storedEntries(path) == before)
    }

    @Test(arguments: [false, true])
    func aLoadThatThrowsMidwayIsUndone(replacing: Bool) throws {
        let folder = try TemporaryFolder()
        let path = try seededStore(folder)
        let before = try storedEntries(path)
        let original: [String: MapValue] = ["t/ints": ["old": true, "n": 1], "k/keep": ["n": 4]]
        struct Stop: Error {}
        let store = try DocumentStore(path: path)
        var added = 0
        #expect(throws: Stop.self) {
            try store.bulkLoad(into: database, replacing: replacing, batchBytes: 64) { loader in
                for (path, fields) in GoogleFixture.documents.sorted(by: { $0.key < $1.key }) {
                    try loader.add(GoogleFixture.name(path), fields: fields)
                    added += 1
                    if added == 12 {
                        // Batches were written, but reads see none of their documents.
                        #expect(try documents(store) == original)
                        throw Stop()
                    }
                }
            }
        }
        #expect(try documents(store) == original)
        #expect(try namesWhere("a", equals: 0, in: store).isEmpty)
        try store.close()
        #expect(try storedEntries(path) == before)
        // The store goes on: a later commit and import work.
        let reopened = try DocumentStore(path: path)
        try reopened.commit([.set(GoogleFixture.name("k/after"), fields: [:])])
        let mode: StoreImporter.Mode = replacing ? .replace : .merge
        #expect(
            try StoreImporter(database: database, mode: mode).run(
                ExportReader(path: GoogleFixture.folder), into: reopened)
                == 19)
        #expect(try documents(reopened).count == (replacing ? 19 : 21))
        #expect(try namesWhere("a", equals: 0, in: reopened) == ["t/ints"])
        try reopened.close()
    }

    @Test func aLoadCutShortByTheProcessDyingIsUndoneWhenTheStoreOpens() throws {
        let folder = try TemporaryFolder()
        let path = try seededStore(folder)
        let before = try storedEntries(path)
        let crashed = folder.file("crashed")
        let store = try DocumentStore(path: path)
        var added = 0
        try store.bulkLoad(into: database, replacing: false, batchBytes: 64) { loader in
            for (path, fields) in GoogleFixture.documents.sorted(by: { $0.key < $1.key }) {
                try loader.add(GoogleFixture.name(path), fields: fields)
                added += 1
                if added == 12 {
                    // The folder as a SIGKILL now would leave it: LevelDB's files as written so
                    // far (the data is far below a write buffer, so no compaction runs).
                    try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
                    for file in try FileManager.default.contentsOfDirectory(atPath: folder.file("data"))
                    where file != "LOCK" {
                        try FileManager.default.copyItem(
                            atPath: folder.file("data/\(file)"), toPath: crashed + "/" + file)
                    }
                }
            }
        }
        try store.close()
        #expect(added == 19)
        let reopened = try DocumentStore(path: crashed)
        #expect(try documents(reopened) == ["t/ints": ["old": true, "n": 1], "k/keep": ["n": 4]])
        #expect(try namesWhere("a", equals: 0, in: reopened).isEmpty)
        try reopened.close()
        #expect(try storedEntries(crashed) == before)
    }
}
