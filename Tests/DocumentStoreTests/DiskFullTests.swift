import DocumentModel
import DocumentStore
import Foundation
import Testing

/// A full disk, on a small tmpfs mounted for the test: writes fail with RESOURCE_EXHAUSTED
/// naming the disk, reads go on, writes resume once space is freed (without reopening the
/// store), a close still succeeds, and every acknowledged write is there after a restart.
/// Skipped where the test may not mount a file system (it needs root).
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs permission to mount a tmpfs (root)"))
struct DiskFullTests {
    private static let fillerBytes = 5 << 20

    @Test("A full disk fails writes with RESOURCE_EXHAUSTED; freeing space resumes them; nothing acknowledged is lost")
    func writesResumeWhenSpaceReturns() throws {
        let disk = try SmallDisk(megabytes: 10)
        defer { disk.unmount() }
        let filler = disk.path + "/filler"
        try Data(count: Self.fillerBytes).write(to: URL(fileURLWithPath: filler))
        let db = try DatabaseID(project: "disk-full")
        var store: DocumentStore? = try DocumentStore(path: disk.path + "/data", configuration: Self.configuration)
        let (acknowledged, failure) = Self.fill(try #require(store), db)
        #expect(failure?.code == .resourceExhausted)
        #expect(failure?.message.contains("'\(disk.path)'") == true, "\(String(describing: failure))")
        #expect(acknowledged > 0)

        // Reads go on; writes keep failing while the disk is full.
        let first = try #require(store).documents([try DocumentName(db, "docs/d0")]).documents
        #expect(first.first??.fields["i"] == .integer(0))
        #expect(throws: FirestoreError.self) { try store?.commit([Self.write(db, acknowledged)]) }

        try FileManager.default.removeItem(atPath: filler)
        for index in acknowledged..<acknowledged + 20 { _ = try #require(store).commit([Self.write(db, index)]) }
        try #require(store).close()
        store = nil

        let reopened = try DocumentStore(path: disk.path + "/data", configuration: Self.configuration)
        defer { try? reopened.close() }
        #expect(try Self.present(reopened, db, upTo: acknowledged + 20) == acknowledged + 20)
    }

    @Test("A store stopped by a full disk still closes cleanly, and keeps every acknowledged write")
    func closeAfterDiskFull() throws {
        let disk = try SmallDisk(megabytes: 6)
        defer { disk.unmount() }
        let db = try DatabaseID(project: "disk-full")
        let store = try DocumentStore(path: disk.path + "/data", configuration: Self.configuration)
        let (acknowledged, failure) = Self.fill(store, db)
        #expect(failure?.code == .resourceExhausted)
        try store.close()

        try disk.resize(megabytes: 24)
        let reopened = try DocumentStore(path: disk.path + "/data", configuration: Self.configuration)
        defer { try? reopened.close() }
        #expect(try Self.present(reopened, db, upTo: acknowledged + 1) == acknowledged)
    }

    @Test("A bulk load that fills the disk fails with RESOURCE_EXHAUSTED and leaves none of its documents")
    func bulkLoadOnAFullDisk() throws {
        let disk = try SmallDisk(megabytes: 10)
        defer { disk.unmount() }
        let db = try DatabaseID(project: "disk-full")
        let store = try DocumentStore(path: disk.path + "/data", configuration: Self.configuration)
        defer { try? store.close() }
        _ = try store.commit([try Self.write(db, 0)])
        let filler = disk.path + "/filler"
        try Data(count: 7 << 20).write(to: URL(fileURLWithPath: filler))

        var failure: FirestoreError?
        do {
            // Index keys as large as the documents, in a small sort memory: the sort spills too.
            try store.bulkLoad(into: db, replacing: false, sortBytes: 64 << 10) { loader in
                for index in 1..<2_000 {
                    let text = String(repeating: "x", count: 4_000) + "\(index)"
                    try loader.add(
                        try DocumentName(db, "docs/d\(index)"), fields: ["i": .integer(Int64(index)), "text": .string(text)])
                }
            }
        } catch let error as FirestoreError {
            failure = error
        }
        #expect(failure?.code == .resourceExhausted, "\(String(describing: failure))")
        #expect(failure?.message.contains("'\(disk.path)") == true, "\(String(describing: failure))")

        // Freeing space resumes writes, and the load is rolled back first.
        try FileManager.default.removeItem(atPath: filler)
        _ = try store.commit([try Self.write(db, 5_000)])
        #expect(try Self.present(store, db, upTo: 2_000) == 1)
        let query = Query(
            database: db, parent: .root,
            structured: StructuredQuery(from: CollectionSelector(collectionID: "docs", allDescendants: false),
                filter: .field(try FieldPath("text"), .greaterThan, "")))
        #expect(try store.runQuery(query).documents.isEmpty, "no document of the load is found through the index")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: disk.path + "/data").filter {
            $0.hasSuffix(".sort")
        }
        #expect(leftovers.isEmpty)
    }

    private static var configuration: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        configuration.levelDB.writeBufferBytes = 1 << 20
        return configuration
    }

    private static func write(_ db: DatabaseID, _ index: Int) throws -> Write {
        .set(try DocumentName(db, "docs/d\(index)"),
             fields: ["i": .integer(Int64(index)), "pad": .bytes(Array(repeating: UInt8(index & 0xFF), count: 16_000))])
    }

    /// Commits documents until a commit fails: how many were acknowledged, and the failure.
    private static func fill(_ store: DocumentStore, _ db: DatabaseID) -> (Int, FirestoreError?) {
        for index in 0..<10_000 {
            do {
                _ = try store.commit([try write(db, index)])
            } catch {
                return (index, error as? FirestoreError)
            }
        }
        return (10_000, nil)
    }

    /// How many of `docs/d0`..`docs/d<count-1>` exist, each with its own index.
    private static func present(_ store: DocumentStore, _ db: DatabaseID, upTo count: Int) throws -> Int {
        let names = try (0..<count).map { try DocumentName(db, "docs/d\($0)") }
        let documents = try store.documents(names).documents
        return zip(0..., documents).filter { index, document in document?.fields["i"] == .integer(Int64(index)) }.count
    }
}

/// A tmpfs of a few megabytes mounted on a new temporary folder.
struct SmallDisk {
    let path: String

    init(megabytes: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard SmallDisk.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]) else {
            try? FileManager.default.removeItem(atPath: path)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Grows (or shrinks) the file system.
    func resize(megabytes: Int) throws {
        guard SmallDisk.run("/bin/mount", ["-o", "remount,size=\(megabytes)m", path]) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    func unmount() {
        _ = SmallDisk.run("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Whether this process may mount a tmpfs (tried once).
    static let canMount: Bool = {
        guard let disk = try? SmallDisk(megabytes: 1) else { return false }
        disk.unmount()
        return true
    }()

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: tool) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
