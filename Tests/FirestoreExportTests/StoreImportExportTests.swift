import DocumentModel
import DocumentStore
import Foundation
import Testing

@testable import FirestoreExport

@Suite("Import and export of a store")
struct StoreImportExportTests {
    private let database = GoogleFixture.database

    private func openStore(_ folder: TemporaryFolder, _ name: String = "data") throws -> DocumentStore {
        try DocumentStore(path: folder.file(name))
    }

    private func contents(_ store: DocumentStore, _ database: DatabaseID) throws -> [String: MapValue] {
        var documents: [String: MapValue] = [:]
        try store.forEachDocument(in: database) { documents[$0.name.path.description] = $0.fields }
        return documents
    }

    private func expectIdentical(_ actual: [String: MapValue], _ expected: [String: MapValue]) {
        #expect(Set(actual.keys) == Set(expected.keys))
        for (path, fields) in expected {
            #expect(actual[path].map { Value.map($0).isIdentical(to: .map(fields)) } == true, "\(path)")
        }
    }

    @Test func googlesExportImportsFromEachKindOfPath() throws {
        let folder = try TemporaryFolder()
        for (index, path) in [GoogleFixture.folder, GoogleFixture.metadata].enumerated() {
            let store = try openStore(folder, "data\(index)")
            let count = try StoreImporter(database: database, mode: .intoEmpty).run(
                ExportReader(path: path), into: store)
            #expect(count == 19)
            expectIdentical(try contents(store, database), GoogleFixture.documents)
            try store.close()
        }
    }

    @Test func exportThenImportIsExactAndUsesTheFirebaseToolsLayout() throws {
        let folder = try TemporaryFolder()
        let source = try openStore(folder, "source")
        _ = try StoreImporter(database: database, mode: .intoEmpty).run(
            ExportReader(path: GoogleFixture.folder), into: source)
        let destination = folder.file("export")
        let summary = try StoreExporter.export(database: database, of: source, to: destination, layout: .firebaseTools)
        #expect(summary.documents == 19)
        let files = Set(FileManager.default.subpaths(atPath: destination) ?? [])
        #expect(
            files.isSuperset(of: [
                "firebase-export-metadata.json", "firestore_export/firestore_export.overall_export_metadata",
                "firestore_export/all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata",
                "firestore_export/all_namespaces/all_kinds/output-0",
            ]))
        // firebase-tools' own metadata file, which `firebase emulators:start --import` reads.
        #expect(
            try String(contentsOfFile: destination + "/firebase-export-metadata.json", encoding: .utf8) == """
                {
                  "version": "13.0.0",
                  "firestore": {
                    "version": "1.19.0",
                    "path": "firestore_export",
                    "metadata_file": "firestore_export/firestore_export.overall_export_metadata"
                  }
                }

                """)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("partial") }.isEmpty)
        let copy = try openStore(folder, "copy")
        let other = try DatabaseID(project: "demo-other")
        try StoreImporter(database: other, mode: .intoEmpty).run(ExportReader(path: destination), into: copy)
        // References keep their project, as when Google's emulator seeds an export into another project.
        expectIdentical(try contents(copy, other), GoogleFixture.documents)
        // Exporting again replaces the previous export.
        _ = try StoreExporter.export(database: other, of: copy, to: destination, layout: .firebaseTools)
        #expect(try ExportReader(path: destination).documentCount == 19)
        try source.close()
        try copy.close()
    }

    @Test func anEmptyDatabaseExportsAsGooglesEmulatorDoes() throws {
        let folder = try TemporaryFolder()
        let store = try openStore(folder)
        let destination = folder.file("empty/firestore_export_1")
        try FileManager.default.createDirectory(atPath: folder.file("empty"), withIntermediateDirectories: true)
        _ = try StoreExporter.export(
            database: database, of: store, to: destination, layout: .exportFolder(name: "firestore_export_1"))
        #expect(FileManager.default.subpaths(atPath: destination) == ["firestore_export_1.overall_export_metadata"])
        let bytes = try Data(
            contentsOf: URL(fileURLWithPath: destination + "/firestore_export_1.overall_export_metadata"))
        // Google's emulator's file for an empty database, byte for byte.
        #expect(
            Array(bytes) == [0xB8, 0x6D, 0x44, 0x4E, 0x01, 0x00, 0x01, 0x33, 0x05, 0x2B, 0x28, 0x43, 0x00, 0x00, 0x01])
        #expect(
            try StoreImporter(database: database, mode: .intoEmpty).run(ExportReader(path: destination), into: store)
                == 0)
        try store.close()
    }

    @Test func importRefusesANonEmptyDatabaseUnlessMerging() throws {
        let folder = try TemporaryFolder()
        let store = try openStore(folder)
        try store.commit([
            .set(GoogleFixture.name("t/ints"), fields: ["old": true]), .set(GoogleFixture.name("k/keep"), fields: [:]),
        ])
        #expect {
            try StoreImporter(database: database, mode: .intoEmpty).run(
                ExportReader(path: GoogleFixture.folder), into: store)
        } throws: { ($0 as? ExportError)?.code == .notEmpty }
        try StoreImporter(database: database, mode: .merge).run(ExportReader(path: GoogleFixture.folder), into: store)
        let documents = try contents(store, database)
        #expect(documents.count == 20)
        #expect(documents["t/ints"]?["old"] == nil)
        #expect(documents["k/keep"] != nil)
        try store.close()
    }

    @Test(arguments: BadExport.allCases)
    func badInputImportsNothingAndNamesTheFileAndOffset(_ damage: BadExport) throws {
        let folder = try TemporaryFolder()
        let export = folder.file("export")
        try FileManager.default.copyItem(atPath: GoogleFixture.folder, toPath: export)
        let (path, expected) = try damage.apply(to: export)
        let store = try openStore(folder)
        #expect {
            try StoreImporter(database: database, mode: .intoEmpty).run(ExportReader(path: path), into: store)
        } throws: { error in
            guard let error = error as? ExportError else { return false }
            return error.code == expected.code && error.description == expected.description
        }
        #expect(try !store.hasDocuments(in: database))
        try store.close()
    }
}

/// Damage done to a copy of the fixture, and the error it must give.
enum BadExport: CaseIterable, CustomTestStringConvertible {
    case truncatedBlock, truncatedAtARecordBoundary, badChecksum, unknownValueTag, missingMetadata, notAnExport,
        missingKindMetadata

    var testDescription: String { "\(self)" }

    /// Damages the export at `folder`; returns the path to import and the error expected.
    func apply(to folder: String) throws -> (String, ExportError) {
        let output = folder + "/all_namespaces/all_kinds/output-0"
        let metadata = folder + "/firestore_export_1795724546.overall_export_metadata"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        switch self {
        case .truncatedBlock:
            try bytes.prefix(4000).write(to: URL(fileURLWithPath: output))
            return (
                folder,
                ExportError(
                    .truncated, "a fragment of 546 bytes runs past the end of the file", file: output, offset: 3804)
            )
        case .truncatedAtARecordBoundary:
            try bytes.prefix(3804).write(to: URL(fileURLWithPath: output))
            return (
                folder,
                ExportError(
                    .truncated,
                    "the output ends after 17 documents in 3804 bytes; the metadata lists 19 in 4413", file: output,
                    offset: 3804)
            )
        case .badChecksum:
            bytes[200] ^= 0x20
            try bytes.write(to: URL(fileURLWithPath: output))
            return (folder, ExportError(.badChecksum, "bad checksum in the record header", file: output, offset: 177))
        case .unknownValueTag:
            // Rewrites the first record's property value `{1: 1}` as `{11: 1}` with a valid checksum.
            var reader = try LogReader(path: output)
            var records: [[UInt8]] = []
            while let record = try reader.next() { records.append(record.bytes) }
            guard let value = records[0].firstIndex(of: 0x2A) else { throw ExportError(.malformed, "no value") }
            let index = value + 2  // the value `2A 02 08 01`: its tag
            records[0][index] = 0x58
            let writer = try LogWriter(path: output)
            for record in records { try writer.append(record) }
            try writer.close()
            return (
                folder,
                ExportError(
                    .unknownTag, "entity byte \(index): unknown field 11 (wire type 0) in a property value",
                    file: output, offset: 0)
            )
        case .missingMetadata:
            try FileManager.default.removeItem(atPath: metadata)
            try FileManager.default.createDirectory(atPath: folder + "/parent", withIntermediateDirectories: true)
            try Data(
                "{\"version\": \"13.0.0\", \"firestore\": {\"path\": \"x\", \"metadata_file\": \"x/x.overall_export_metadata\"}}"
                    .utf8
            )
            .write(to: URL(fileURLWithPath: folder + "/parent/firebase-export-metadata.json"))
            return (
                folder + "/parent",
                ExportError(
                    .missingMetadata, "the Firestore metadata file it names is missing",
                    file: folder + "/parent/x/x.overall_export_metadata")
            )
        case .notAnExport:
            try FileManager.default.removeItem(atPath: metadata)
            return (
                folder,
                ExportError(
                    .notAnExport,
                    "not an export: no firebase-export-metadata.json and no *.overall_export_metadata file",
                    file: folder)
            )
        case .missingKindMetadata:
            let kinds = folder + "/all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata"
            try FileManager.default.removeItem(atPath: kinds)
            return (
                folder, ExportError(.missingMetadata, "the export metadata file is missing or unreadable", file: kinds)
            )
        }
    }
}
