import DocumentModel
@testable import EmulatorServer
import FirestoreExport
import Foundation
import Testing

/// `POST /emulator/v1/projects/{p}:export`, with the request and answers of Google's emulator
/// (recorded from it: `{\n}\n` as `application/json`, and its two error bodies).
@Suite struct ExportAdminTests {
    private let documents = "/v1/projects/demo-test/databases/(default)/documents"
    private let endpoint = "/emulator/v1/projects/demo-test:export"

    private func body(database: String = "projects/demo-test/databases/(default)", directory: String, name: String? = nil) -> String {
        var object = ["database": database, "export_directory": directory]
        if let name { object["export_name"] = name }
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func exportsTheDatabaseNamedInTheBodyUnderTheExportName() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-export-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await TestServer.run { server in
            let http = server.http
            for id in ["a", "b", "__id7__"] {
                let written = try await http.send("PATCH", "\(documents)/things/\(id)", body: #"{"fields": {"n": {"integerValue": "1"}}}"#)
                #expect(written.status == 200)
            }
            let named = try await http.send("POST", endpoint, body: body(directory: folder, name: "firestore_export"))
            #expect(named.status == 200)
            #expect(named.body == "{\n}\n")
            #expect(named.headers["content-type"] == "application/json")
            let export = try ExportReader(path: folder + "/firestore_export")
            #expect(export.documentCount == 3)
            #expect(export.location.metadataFile == folder + "/firestore_export/firestore_export.overall_export_metadata")

            let unnamed = try await http.send("POST", endpoint, body: body(directory: folder))
            #expect(unnamed.status == 200)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(names.contains { $0.hasPrefix("firestore_export_") && Int($0.dropFirst(17)) != nil }, "\(names)")

            let other = try await http.send(
                "POST", endpoint, body: body(database: "projects/other/databases/(default)", directory: folder, name: "other"))
            #expect(other.status == 200)
            #expect(try ExportReader(path: folder + "/other").documentCount == 0, "the body's database, not the path's project")
        }
    }

    @Test func badRequestsGetGooglesErrors() async throws {
        try await TestServer.run { server in
            let http = server.http
            let noDatabase = try await http.send("POST", endpoint, body: "{}")
            #expect(noDatabase.status == 400)
            #expect(noDatabase.body == #"{"error":{"code":400,"message":"Database name \"\" lacks \"projects\" at index 0.","status":"INVALID_ARGUMENT"}}"#)
            let noFolder = try await http.send("POST", endpoint, body: body(directory: "/nonexistent/folder"))
            #expect(noFolder.status == 400)
            #expect(noFolder.body == #"{"error":{"code":400,"message":"export_directory must be a directory","status":"FAILED_PRECONDITION"}}"#)
        }
    }
}
