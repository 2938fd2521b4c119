import DocumentModel
import DocumentStore
import Foundation
import Testing

/// A damaged data folder is reported, never served: a damaged block answers DATA_LOSS naming
/// what could not be read, a folder without `CURRENT` is refused instead of opened as new, and
/// damage found at open names the damaged file.
@Suite("Integrity")
struct IntegrityTests {
    static let documentCount = 4000

    private func open(_ folder: String) throws -> DocumentStore {
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        return try DocumentStore(path: folder, configuration: configuration)
    }

    @Test("A flipped table block answers DATA_LOSS naming the document, never a wrong document")
    func flippedTableBlockIsDataLoss() throws {
        let (folder, database) = try FolderDamage.storeWithDocuments(Self.documentCount)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let table = try #require(try FolderDamage.largestFile(in: folder, endingWith: ".ldb"))
        // A quarter into the table: among the documents, which come before the index entries.
        try FolderDamage.flipBytes(in: table, at: try FolderDamage.size(table) / 4, count: 64)

        let store = try open(folder)
        defer { try? store.close() }
        var damaged = 0
        for index in 0..<Self.documentCount {
            let name = try DocumentName(database, "items/\(index)")
            do {
                let document = try #require(try store.document(name), "items/\(index) missing with OK")
                #expect(document.fields["index"] == .integer(Int64(index)), "items/\(index) read wrong with OK")
                #expect(document.fields["text"].map { if case .string(let text) = $0 { text.count == 200 } else { false } } == true)
            } catch let error as FirestoreError {
                #expect(error.code == .dataLoss, "\(error)")
                #expect(error.message.contains("items/\(index)"), "\(error.message)")
                damaged += 1
            }
        }
        #expect(damaged > 0)

        let query = Query(
            database: database, parent: try ResourcePath(""),
            structured: StructuredQuery(from: CollectionSelector(collectionID: "items")))
        #expect {
            _ = try store.runQuery(query)
        } throws: { error in
            guard let error = error as? FirestoreError else { return false }
            return error.code == .dataLoss && error.message.contains("items")
        }
    }

    @Test("A folder of LevelDB files without CURRENT is refused, and every file stays")
    func missingCurrentIsRefused() throws {
        let (folder, _) = try FolderDamage.storeWithDocuments(300)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.removeItem(atPath: folder + "/CURRENT")
        let before = try FolderDamage.files(in: folder)

        #expect {
            _ = try open(folder)
        } throws: { error in
            guard let error = error as? FirestoreError else { return false }
            return error.code == .dataLoss && error.message.contains(folder) && error.message.contains("CURRENT")
        }
        #expect(try FolderDamage.files(in: folder) == before)
    }

    @Test("An absent folder and an empty folder are created as new stores")
    func absentAndEmptyFoldersAreCreated() throws {
        let parent = NSTemporaryDirectory() + "hearth-new-tests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try open(parent + "/absent/data").close()
        try FileManager.default.createDirectory(atPath: parent + "/empty", withIntermediateDirectories: true)
        try open(parent + "/empty").close()
        #expect(try FolderDamage.files(in: parent + "/empty").contains("CURRENT"))
    }

    @Test("A damaged write-ahead log refuses the open and names the log file")
    func damagedLogIsRefused() throws {
        let (folder, database) = try FolderDamage.storeWithDocuments(10)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Writes that stay in the write-ahead log: the store is closed before they reach a table.
        var store = try open(folder)
        var generator = SystemRandomNumberGenerator()
        for index in 10..<2000 {
            try store.commit([.set(try DocumentName(database, "items/\(index)"), fields: FolderDamage.fields(index, using: &generator))])
        }
        try store.close()
        let log = try #require(try FolderDamage.largestFile(in: folder, endingWith: ".log"))
        try FolderDamage.flipBytes(in: log, count: 64)

        #expect {
            store = try open(folder)
        } throws: { error in
            guard let error = error as? FirestoreError else { return false }
            return error.code == .dataLoss && error.message.contains((log as NSString).lastPathComponent)
                && error.message.contains("hearth repair")
        }
    }

    @Test("A write-ahead log cut short after a clean stop refuses the open naming the log; check and repair report it")
    func truncatedLogIsRefused() throws {
        let (folder, database) = try FolderDamage.storeWithDocuments(10)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var store = try open(folder)
        var generator = SystemRandomNumberGenerator()
        for index in 10..<500 {
            try store.commit([.set(try DocumentName(database, "items/\(index)"), fields: FolderDamage.fields(index, using: &generator))])
        }
        try store.close()
        let log = try #require(try FolderDamage.largestFile(in: folder, endingWith: ".log"))
        let logName = (log as NSString).lastPathComponent
        let handle = try #require(FileHandle(forWritingAtPath: log))
        try handle.truncate(atOffset: UInt64(try FolderDamage.size(log) - 5000))
        try handle.close()
        let before = try FolderDamage.files(in: folder)

        #expect {
            store = try open(folder)
        } throws: { error in
            guard let error = error as? FirestoreError else { return false }
            return error.code == .dataLoss && error.message.contains(logName) && error.message.contains("cut short")
        }
        #expect(try FolderDamage.files(in: folder) == before)

        let check = try DocumentStore.check(path: folder)
        #expect(check.damage.contains { $0.contains(logName) && $0.contains("cut short") }, "\(check.damage)")
        #expect(throws: FirestoreError.self) { store = try open(folder) }
        let backup = folder + ".before-repair"
        defer { try? FileManager.default.removeItem(atPath: backup) }
        let report = try DocumentStore.repair(path: folder, backup: backup)
        #expect(report.levelDBNotes.contains { $0.contains(logName) }, "\(report.levelDBNotes)")
        store = try open(folder)
        defer { try? store.close() }
        #expect(try store.document(try DocumentName(database, "items/10")) != nil)
    }

    @Test("A store closed cleanly and untouched opens again, as often as needed")
    func cleanStopsReopen() throws {
        let (folder, database) = try FolderDamage.storeWithDocuments(10)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for round in 0..<3 {
            let store = try open(folder)
            try store.commit([.set(try DocumentName(database, "rounds/\(round)"), fields: ["n": .integer(Int64(round))])])
            try store.close()
        }
        let store = try open(folder)
        defer { try? store.close() }
        #expect(try store.document(try DocumentName(database, "rounds/2"))?.fields["n"] == .integer(2))
    }

    @Test("A damaged manifest refuses the open and names the manifest")
    func damagedManifestIsRefused() throws {
        let (folder, _) = try FolderDamage.storeWithDocuments(300)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let manifest = try #require(try FolderDamage.files(in: folder).first { $0.hasPrefix("MANIFEST-") })
        try FolderDamage.flipBytes(in: folder + "/" + manifest, at: 20, count: 4)

        #expect {
            _ = try open(folder)
        } throws: { error in
            guard let error = error as? FirestoreError else { return false }
            return error.code == .dataLoss && error.message.contains(manifest)
        }
    }

    @Test("Repair refuses a folder that a store has open, and leaves no copy")
    func repairRefusesAnOpenFolder() throws {
        let (folder, _) = try FolderDamage.storeWithDocuments(10)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try open(folder)
        defer { try? store.close() }
        let backup = folder + ".before-repair"
        defer { try? FileManager.default.removeItem(atPath: backup) }
        #expect {
            _ = try DocumentStore.repair(path: folder, backup: backup)
        } throws: { error in
            (error as? FirestoreError)?.code == .failedPrecondition
        }
        #expect(!FileManager.default.fileExists(atPath: backup))
    }

    @Test("Repair of a folder whose table lost a block keeps the rest and names the lost documents")
    func repairListsLostDocuments() throws {
        let (folder, database) = try FolderDamage.storeWithDocuments(Self.documentCount)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let table = try #require(try FolderDamage.largestFile(in: folder, endingWith: ".ldb"))
        try FolderDamage.flipBytes(in: table, at: try FolderDamage.size(table) / 4, count: 64)
        let backup = folder + ".before-repair"
        defer { try? FileManager.default.removeItem(atPath: backup) }

        let report = try DocumentStore.repair(path: folder, backup: backup)
        #expect(!report.documentsLost.isEmpty)
        #expect(report.documentsKept + report.documentsLost.count == Self.documentCount)
        let store = try open(folder)
        defer { try? store.close() }
        for lost in report.documentsLost { #expect(try store.document(lost) == nil) }
        let query = Query(
            database: database, parent: try ResourcePath(""),
            structured: StructuredQuery(from: CollectionSelector(collectionID: "items")))
        #expect(try store.runQuery(query).documents.count == report.documentsKept)
        #expect(try DocumentStore.check(path: backup).isDamaged)
    }
}
