import DocumentModel
import DocumentStore
import Foundation
import Testing

/// `hearth import`, `hearth export`, `hearth start --import` / `--export-on-exit` and the
/// `import` and `exportOnExit` keys of emulator.json, on sandboxed data folders; an export
/// killed with SIGKILL, which must never look finished; and a merging import killed with
/// SIGKILL, which must leave the database as it was.
@Suite struct PortabilityCommandTests {
    private let database = try! DatabaseID(project: "demo-hearth")

    /// Writes `count` documents `items/0`… (about 1 KB each) into the sandbox's data folder.
    private func writeDocuments(_ count: Int, in sandbox: Sandbox) throws {
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: sandbox.dataFolder.path, configuration: configuration)
        let text = String(repeating: "x", count: 1000)
        for start in stride(from: 0, to: count, by: 1000) {
            try store.commit(
                try (start..<min(start + 1000, count)).map { index in
                    .set(
                        try DocumentName(database, "items/\(index)"),
                        fields: ["i": .integer(Int64(index)), "text": .string(text)])
                })
        }
        try store.close()
    }

    @Test func exportThenImportIntoAnotherFolderAndProject() throws {
        let sandbox = try Sandbox()
        try writeDocuments(2500, in: sandbox)
        let exported = try sandbox.run(["export", "seed"])
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        #expect(exported.stdout.hasPrefix("Exported 2500 documents ("))
        #expect(FileManager.default.fileExists(atPath: sandbox.directory.path + "/seed/firebase-export-metadata.json"))

        let imported = try sandbox.run(["import", "seed", "--data", "copy", "--project", "demo-copy"])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 2500 documents into projects/demo-copy/databases/(default)\n")
        let again = try sandbox.run([
            "import", "seed/firestore_export/firestore_export.overall_export_metadata",
            "--data", "copy", "--project", "demo-copy",
        ])
        #expect(again.exitCode == 1)
        #expect(again.stderr.contains("has documents: import into an empty database"))
        let merged = try sandbox.run(["import", "seed", "--data", "copy", "--project", "demo-copy", "--merge"])
        #expect(merged.exitCode == 0)
        let got = try sandbox.run(["get", "items/2499", "--data", "copy", "--project", "demo-copy"])
        #expect(got.stdout.contains("\"integerValue\": \"2499\""))
    }

    @Test func badInputNamesTheFileAndOffsetAndImportsNothing() throws {
        let sandbox = try Sandbox()
        try writeDocuments(50, in: sandbox)
        #expect(try sandbox.run(["export", "seed"]).exitCode == 0)
        let output = sandbox.directory.path + "/seed/firestore_export/all_namespaces/all_kinds/output-0"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        bytes[bytes.count - 10] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: output))
        let result = try sandbox.run(["import", "seed", "--data", "copy"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains("seed/firestore_export/all_namespaces/all_kinds/output-0: byte "))
        #expect(result.stderr.contains(": bad checksum in the record header"))
        #expect(try sandbox.run(["list", "items", "--data", "copy"]).stdout.isEmpty)
        let notExport = try sandbox.run(["import", ".", "--data", "copy"])
        #expect(
            notExport.stderr
                == "Error: .: not an export: no firebase-export-metadata.json and no *.overall_export_metadata file\n")
    }

    @Test func startImportsAtStartAndExportsOnExitFromEmulatorJSON() async throws {
        let sandbox = try Sandbox()
        try writeDocuments(30, in: sandbox)
        #expect(try sandbox.run(["export", "seed"]).exitCode == 0)
        try sandbox.write(#"{"import": "seed", "exportOnExit": "out", "dataFolder": "fresh"}"#, to: "emulator.json")
        let result = try sandbox.run(["exec", "--port", "0", "--", "true"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let log = result.stdout + result.stderr
        #expect(log.contains("Imported 30 documents from seed into projects/demo-hearth/databases/(default)"), "\(log)")
        #expect(log.contains("Exported 30 documents of projects/demo-hearth/databases/(default) to out"), "\(log)")
        #expect(
            FileManager.default.fileExists(
                atPath: sandbox.directory.path + "/out/firestore_export/firestore_export.overall_export_metadata"))
        // Flags override the keys; a start import replaces what the folder had.
        try writeDocuments(5, in: sandbox)
        let replaced = try sandbox.run([
            "exec", "--port", "0", "--data", ".hearth/data", "--import", "out", "--", "true",
        ])
        #expect(replaced.exitCode == 0, "\(replaced.stderr)")
        let listed = try sandbox.run(["list", "items", "--names-only", "--data", ".hearth/data"])
        #expect(listed.stdout.split(separator: "\n").count == 30)
    }

    @Test func anExportKilledMidwayNeverLooksFinished() async throws {
        let sandbox = try Sandbox()
        try writeDocuments(60_000, in: sandbox)
        let process = Process()
        process.executableURL = try Sandbox.executable.get()
        process.arguments = ["export", "seed"]
        process.currentDirectoryURL = sandbox.directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let partial = sandbox.directory.path + "/.seed.partial-\(process.processIdentifier)"
        let output = partial + "/firestore_export/all_namespaces/all_kinds/output-0"
        // Killed once the export has begun writing its folder. A blocking poll: a sleeping task
        // may wake too late on a loaded machine, after a small export has finished.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            if size > 0 || FileManager.default.fileExists(atPath: partial + "/firestore_export") { break }
            usleep(500)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the export finished before the kill: make it bigger")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.path + "/seed"))
        let imported = try sandbox.run(["import", "seed", "--data", "copy"])
        #expect(imported.exitCode == 1)
        let fromPartial = try sandbox.run(["import", ".seed.partial-\(process.processIdentifier)", "--data", "copy"])
        #expect(fromPartial.exitCode == 1, "the half-written folder has no metadata yet")
        #expect(fromPartial.stderr.contains("not an export"))
    }

    @Test func aMergeImportKilledMidwayLeavesTheDatabaseAsItWas() throws {
        let sandbox = try Sandbox()
        try writeDocuments(30_000, in: sandbox)
        #expect(try sandbox.run(["export", "seed"]).exitCode == 0)
        // The database merged into: a document the export overwrites, and one it does not have.
        let copy = sandbox.directory.appendingPathComponent("copy").path
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: copy, configuration: configuration)
        try store.commit([
            .set(try DocumentName(database, "items/7"), fields: ["i": "mine"]),
            .set(try DocumentName(database, "other/kept"), fields: [:]),
        ])
        try store.close()
        let folderBytes = {
            (try? FileManager.default.contentsOfDirectory(atPath: copy))?.reduce(0) { total, file in
                total + ((try? FileManager.default.attributesOfItem(atPath: copy + "/" + file)[.size] as? Int) ?? 0)
            } ?? 0
        }
        let startBytes = folderBytes()
        let process = Process()
        process.executableURL = try Sandbox.executable.get()
        process.arguments = ["import", "seed", "--data", "copy", "--merge"]
        process.currentDirectoryURL = sandbox.directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once the import has written a few batches (of about 1 MB each).
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, folderBytes() < startBytes + 3_000_000 { usleep(500) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the import finished before the kill: make it bigger")

        let reopened = try DocumentStore(path: copy, configuration: configuration)
        var documents: [String: MapValue] = [:]
        try reopened.forEachDocument(in: database) { documents[$0.name.path.description] = $0.fields }
        #expect(documents == ["items/7": ["i": "mine"], "other/kept": [:]])
        let query = Query(
            database: database, parent: .root,
            structured: StructuredQuery(from: .collection("items"), filter: .field(try FieldPath("i"), .equal, 5)))
        #expect(try reopened.runQuery(query).documents.isEmpty, "no index entry of the import is left")
        try reopened.close()
        let again = try sandbox.run(["import", "seed", "--data", "copy", "--merge"])
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stdout == "Imported 30000 documents into projects/demo-hearth/databases/(default)\n")
    }
}
