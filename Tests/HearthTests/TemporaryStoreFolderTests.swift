import Foundation
import HearthEmbedded
import Testing

/// Where throwaway stores go: a RAM-backed file system with room, unless `TMPDIR` says otherwise.
@Suite("Temporary store folders")
struct TemporaryStoreFolderTests {
    /// A writable folder with room stands in for `/dev/shm`, so the test runs on any machine.
    @Test("a RAM-backed file system with room is used when TMPDIR is not set")
    func ramDiskWithRoom() throws {
        let standIn = FileManager.default.temporaryDirectory.appendingPathComponent("ram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: standIn, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: standIn) }
        let folder = TemporaryStoreFolder.make(prefix: "hearth-test", environment: [:], ramDisk: standIn.path)
        #expect(folder.deletingLastPathComponent().standardizedFileURL.path == standIn.standardizedFileURL.path)
        #expect(folder.lastPathComponent.hasPrefix("hearth-test-"))
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the folder is named, not created")
        let other = TemporaryStoreFolder.make(prefix: "hearth-test", environment: [:], ramDisk: standIn.path)
        #expect(other != folder)
    }

    @Test("TMPDIR, when set, is kept")
    func temporaryDirectoryChosenByTheUser() throws {
        let standIn = FileManager.default.temporaryDirectory.appendingPathComponent("ram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: standIn, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: standIn) }
        let folder = TemporaryStoreFolder.make(
            prefix: "hearth-test", environment: ["TMPDIR": "/somewhere"], ramDisk: standIn.path)
        #expect(folder.deletingLastPathComponent().path == FileManager.default.temporaryDirectory.path)
    }

    @Test("without a RAM-backed file system, the temporary directory")
    func noRamDisk() {
        let folder = TemporaryStoreFolder.make(prefix: "hearth-test", environment: [:], ramDisk: "/no/such/folder")
        #expect(folder.deletingLastPathComponent().path == FileManager.default.temporaryDirectory.path)
    }

    @Test("an embedded database in a temporary folder stores and reads back")
    func embeddedDatabaseInATemporaryFolder() async throws {
        let db = try Firestore.embedded()
        try await db.document("users/alice").setData(["name": "Alice"])
        let read = try await db.document("users/alice").getDocument()
        #expect(read.get("name") as? String == "Alice")
        await db.terminate()
    }
}
