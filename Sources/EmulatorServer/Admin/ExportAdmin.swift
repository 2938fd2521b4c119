import DocumentModel
import DocumentStore
import FirestoreExport
import Foundation
import NIOHTTP1

/// The emulator's export endpoint, answered as Google's emulator answers it:
/// `POST /emulator/v1/projects/{p}:export` with
/// `{"database": "projects/{p}/databases/(default)", "export_directory": DIR, "export_name": NAME}`
/// writes the database named in the body to `DIR/NAME` (`NAME` defaults to
/// `firestore_export_<seconds since the epoch>`) in Firestore's export format, and answers 200
/// with `{\n}\n` as `application/json` (no charset, unlike the Firestore API's responses). `DIR` must be an existing folder (else 400 FAILED_PRECONDITION
/// `export_directory must be a directory`). firebase-tools calls it with `export_name`
/// `firestore_export` for `emulators:export` and `--export-on-exit`.
struct ExportAdmin: Sendable {
    let store: DocumentStore
    /// The export seeding every project, if any: the exported database is seeded first.
    var seeding: ProjectSeeding?

    private struct Body: Decodable {
        var database: String?
        var exportDirectory: String?
        var exportName: String?

        enum CodingKeys: String, CodingKey {
            case database
            case exportDirectory = "export_directory"
            case exportDirectoryCamel = "exportDirectory"
            case exportName = "export_name"
            case exportNameCamel = "exportName"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            database = try container.decodeIfPresent(String.self, forKey: .database)
            exportDirectory =
                try container.decodeIfPresent(String.self, forKey: .exportDirectory)
                ?? container.decodeIfPresent(String.self, forKey: .exportDirectoryCamel)
            exportName =
                try container.decodeIfPresent(String.self, forKey: .exportName)
                ?? container.decodeIfPresent(String.self, forKey: .exportNameCamel)
        }
    }

    /// Google's answer to a successful export, byte for byte.
    static let successBody = Array("{\n}\n".utf8)

    func respond(body: [UInt8], now: Date = Date()) throws -> HTTPResponse {
        let decoded: Body
        do {
            decoded = try JSONDecoder().decode(Body.self, from: Data(body.isEmpty ? Array("{}".utf8) : body))
        } catch {
            throw FirestoreError.invalidArgument("Payload isn't valid for request.")
        }
        let database = try Self.databaseID(decoded.database ?? "")
        try seeding?.seed(database)
        var isFolder: ObjCBool = false
        guard let directory = decoded.exportDirectory,
            FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue
        else {
            throw FirestoreError(.failedPrecondition, "export_directory must be a directory")
        }
        let name =
            decoded.exportName.flatMap { $0.isEmpty ? nil : $0 } ?? "firestore_export_\(Int(now.timeIntervalSince1970))"
        do {
            _ = try StoreExporter.export(
                database: database, of: store, to: (directory as NSString).appendingPathComponent(name),
                layout: .exportFolder(name: name))
        } catch let error as ExportError {
            throw FirestoreError(.internal, error.description)
        }
        return HTTPResponse(status: .ok, contentType: "application/json", body: Self.successBody)
    }

    /// The database a `projects/{p}/databases/{d}` name names, with Google's message for others.
    static func databaseID(_ name: String) throws -> DatabaseID {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == "projects" else {
            throw FirestoreError.invalidArgument("Database name \"\(name)\" lacks \"projects\" at index 0.")
        }
        guard parts.count == 4, parts[2] == "databases" else {
            throw FirestoreError.invalidArgument("Invalid database name \"\(name)\".")
        }
        return try DatabaseID(project: parts[1], database: parts[3])
    }
}
