import DocumentModel
import FirestoreExport
import Foundation
import Testing

@testable import EmulatorServer

/// `POST /emulator/v1/projects/{p}:export`, with the request and answers of Google's emulator
/// (recorded from it: `{\n}\n` as `application/json`, and its two error bodies).
@Suite struct ExportAdminTests {
    private let documents = "/v1/projects/demo-test/databases/(default)/documents"
    private let endpoint = "/emulator/v1/projects/demo-test:export"

    private func body(
        database: String = "projects/demo-test/databases/(default)", directory: String, name: String? = nil
    ) -> String {
        var object = ["database": database, "export_directory": directory]
        if let name { object["export_name"] = name }
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func exportsTheDatabaseNamedInTheBodyUnderTheExportName() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-export-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await TestServer.run { server in
            let http = server.http
            for id in ["a", "b", "__id7__"] {
                let written = try await http.send(
                    "PATCH", "\(documents)/things/\(id)", body: #"{"fields": {"n": {"integerValue": "1"}}}"#)
                #expect(written.status == 200)
            }
            let named = try await http.send("POST", endpoint, body: body(directory: folder, name: "firestore_export"))
            #expect(named.status == 200)
            #expect(named.body == "{\n}\n")
            #expect(named.headers["content-type"] == "application/json")
            let export = try ExportReader(path: folder + "/firestore_export")
            #expect(export.documentCount == 3)
            #expect(
                export.location.metadataFile == folder + "/firestore_export/firestore_export.overall_export_metadata")

            let unnamed = try await http.send("POST", endpoint, body: body(directory: folder))
            #expect(unnamed.status == 200)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(names.contains { $0.hasPrefix("firestore_export_") && Int($0.dropFirst(17)) != nil }, "\(names)")

            let other = try await http.send(
                "POST", endpoint,
                body: body(database: "projects/other/databases/(default)", directory: folder, name: "other"))
            #expect(other.status == 200)
            #expect(
                try ExportReader(path: folder + "/other").documentCount == 0,
                "the body's database, not the path's project")
        }
    }

    @Test func badRequestsGetGooglesErrors() async throws {
        try await TestServer.run { server in
            let http = server.http
            let noDatabase = try await http.send("POST", endpoint, body: "{}")
            #expect(noDatabase.status == 400)
            #expect(
                noDatabase.body
                    == #"{"error":{"code":400,"message":"Database name \"\" lacks \"projects\" at index 0.","status":"INVALID_ARGUMENT"}}"#
            )
            let noFolder = try await http.send("POST", endpoint, body: body(directory: "/nonexistent/folder"))
            #expect(noFolder.status == 400)
            #expect(
                noFolder.body
                    == #"{"error":{"code":400,"message":"export_directory must be a directory","status":"FAILED_PRECONDITION"}}"#
            )
        }
    }
}

/// `hearth start --import`: an export seeds every project's default database on its first use,
/// once per run, as Google's emulator's `--seed_from_export` does.
@Suite struct ProjectSeedingTests {
    @Test func everyProjectIsSeededOnFirstUseOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-seed-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let exported = try DatabaseID(project: "demo-exported")
        let writer = try ExportWriter(destination: folder, layout: .firebaseTools, startMicroseconds: 0)
        try writer.append(
            Document(
                name: try DocumentName(exported, "things/a"),
                fields: ["n": 1, "ref": .reference(try DocumentName(exported, "things/b"))], createTime: .min,
                updateTime: .min))
        _ = try writer.finish(endMicroseconds: 0)
        try await TestServer.run(seed: folder) { server in
            let http = server.http
            func get(_ project: String, database: String = "(default)") async throws -> RawHTTPClient.Response {
                try await http.send("GET", "/v1/projects/\(project)/databases/\(database)/documents/things/a")
            }
            let first = try await get("p1")
            #expect(first.status == 200)
            #expect(
                first.body.contains("projects/demo-exported/databases/(default)/documents/things/b"),
                "references keep their project")
            #expect(try await get("p2").status == 200)
            #expect(try await get("p1", database: "named").status == 404, "only default databases are seeded")
            let updated = try await http.send(
                "PATCH", "/v1/projects/p1/databases/(default)/documents/things/a",
                body: #"{"fields": {"n": {"integerValue": "2"}}}"#)
            #expect(updated.status == 200)
            #expect(try await get("p1").body.contains("\"2\""), "seeded once per run")
            let cleared = try await http.send("DELETE", "/emulator/v1/projects/p3/databases/(default)/documents")
            #expect(cleared.status == 200)
            #expect(try await get("p3").status == 404, "a clear is not undone by seeding")
        }
    }
}
