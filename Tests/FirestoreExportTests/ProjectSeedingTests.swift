import DocumentModel
import DocumentStore
import Foundation
import Testing

@testable import FirestoreExport

/// `hearth start --import` seeds as Google's emulator's `--seed_from_export` does: the default
/// database of every project, each on its first use, and no named database (checked against
/// Google's emulator by `Tests/Interop/portability/export_roundtrip.py`).
@Suite("Seeding projects from an export")
struct ProjectSeedingTests {
    @Test func everyProjectsDefaultDatabaseIsSeededOnceAndNamedDatabasesNever() throws {
        let folder = try TemporaryFolder()
        let store = try DocumentStore(path: folder.file("data"))
        let seeding = ProjectSeeding(export: try ExportReader(path: GoogleFixture.folder), store: store)
        let first = try DatabaseID(project: "demo-first")
        let named = try DatabaseID(project: "demo-first", database: "other")
        let second = try DatabaseID(project: "demo-second")

        #expect(try seeding.seed(named) == nil)
        #expect(try !store.hasDocuments(in: named))
        #expect(try seeding.seed(first) == 19)
        #expect(try seeding.seed(named) == nil)
        #expect(try !store.hasDocuments(in: named))
        // Once per run: documents written after the seed stay.
        try store.commit([.set(try DocumentName(first, "k/written"), fields: [:])])
        #expect(try seeding.seed(first) == nil)
        #expect(try store.document(try DocumentName(first, "k/written")) != nil)
        #expect(try seeding.seed(second) == 19)
        // A named database keeps what is written to it, seeded or not.
        try store.commit([.set(try DocumentName(named, "k/mine"), fields: ["n": 1])])
        #expect(try seeding.seed(named) == nil)
        var names: [String] = []
        try store.forEachDocument(in: named) { names.append($0.name.path.description) }
        #expect(names == ["k/mine"])
        try store.close()
    }

    @Test func aStartImportReplacesWhatTheDefaultDatabaseHadInOneCommit() throws {
        let folder = try TemporaryFolder()
        let store = try DocumentStore(path: folder.file("data"))
        let database = try DatabaseID(project: "demo-first")
        try store.commit([
            .set(try DocumentName(database, "k/old"), fields: ["n": 1]),
            // One sharing a value with the export's, and one the same as the export's.
            .set(try DocumentName(database, "t/ints"), fields: ["a": 0, "old": true]),
            .set(try DocumentName(database, "t/bool"), fields: ["t": true, "f": false]),
            .set(try DocumentName(database, "t/null"), fields: ["w": 1]),
        ])
        let before = try #require(store.lastCommitTime)
        let seeding = ProjectSeeding(export: try ExportReader(path: GoogleFixture.folder), store: store)
        #expect(try seeding.seed(database) == 19)
        var names: Set<String> = []
        try store.forEachDocument(in: database) { names.insert($0.name.path.description) }
        #expect(names == Set(GoogleFixture.documents.keys))
        // The index has the export's entries, and no others.
        for (field, value, expected) in [
            ("t", Value.boolean(true), ["t/bool"]), ("a", 0, ["t/ints"]), ("old", true, []), ("w", 1, []),
        ] {
            let query = Query(
                database: database, parent: .root,
                structured: StructuredQuery(from: .collection("t"), filter: .field(try FieldPath(field), .equal, value))
            )
            #expect(try store.runQuery(query).documents.map(\.name.path.description) == expected, "\(field)")
        }
        // One commit: the old documents read at a time before the seed, none of the export.
        let seededTime = try #require(store.lastCommitTime)
        #expect(seededTime > before)
        let old = try store.documents(
            [try DocumentName(database, "k/old"), try DocumentName(database, "t/str")], readTime: before)
        #expect(old.documents.map { $0 != nil } == [true, false])
        try store.close()
    }
}
