import DocumentModel
import DocumentStore
import Foundation
import Testing

@testable import FirestoreExport

/// A merging import that fills the disk midway fails with RESOURCE_EXHAUSTED; the batches it
/// wrote cannot be deleted while the disk is full, and are deleted before anything else is
/// written once writes resume.
@Suite(.serialized, .enabled(if: ImportDisk.canMount, "needs permission to mount a tmpfs (root)"))
struct ImportDiskFullTests {
    @Test func aMergeFailingOnAFullDiskIsUndoneWhenWritesResume() throws {
        let folder = try TemporaryFolder()
        let database = try DatabaseID(project: "demo-full")
        let export = folder.file("export")
        let writer = try ExportWriter(destination: export, layout: .firebaseTools, startMicroseconds: 0)
        let text = String(repeating: "x", count: 2000)
        for index in 0..<3000 {
            try writer.append(
                Document(
                    name: try DocumentName(database, "items/\(index)"),
                    fields: ["i": .integer(Int64(index)), "text": .string(text)], createTime: .min, updateTime: .min))
        }
        _ = try writer.finish(endMicroseconds: 0)

        let disk = try ImportDisk(megabytes: 4)
        defer { disk.unmount() }
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: disk.path + "/data", configuration: configuration)
        try store.commit([
            .set(try DocumentName(database, "items/7"), fields: ["i": "mine"]),
            .set(try DocumentName(database, "other/kept"), fields: [:]),
        ])
        #expect {
            try StoreImporter(database: database, mode: .merge).run(ExportReader(path: export), into: store)
        } throws: { ($0 as? FirestoreError)?.code == .resourceExhausted }
        try disk.resize(megabytes: 64)
        try store.commit([.set(try DocumentName(database, "other/after"), fields: [:])])
        var documents: [String: MapValue] = [:]
        try store.forEachDocument(in: database) { documents[$0.name.path.description] = $0.fields }
        #expect(documents == ["items/7": ["i": "mine"], "other/kept": [:], "other/after": [:]])
        let query = Query(
            database: database, parent: .root,
            structured: StructuredQuery(from: .collection("items"), filter: .field(try FieldPath("i"), .equal, 5)))
        #expect(try store.runQuery(query).documents.isEmpty)
        try store.close()
    }
}

/// A small tmpfs file system to fill (as `DocumentStoreTests`' `SmallDisk`).
struct ImportDisk {
    let path: String

    init(megabytes: Int) throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("hearth-import-disk-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard ImportDisk.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]) else {
            try? FileManager.default.removeItem(atPath: path)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Grows the file system.
    func resize(megabytes: Int) throws {
        guard ImportDisk.run("/bin/mount", ["-o", "remount,size=\(megabytes)m", path]) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    func unmount() {
        _ = ImportDisk.run("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Whether this process may mount a tmpfs (tried once).
    static let canMount: Bool = {
        guard let disk = try? ImportDisk(megabytes: 1) else { return false }
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
