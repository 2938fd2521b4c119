import DocumentModel
import Foundation
import NIOHTTP1
import SecurityRules

/// The emulator's security-rules admin endpoints, answered as Google's emulator answers them:
///
/// - `PUT /emulator/v1/projects/{p}:securityRules` with `{"rules":{"files":[{"name":..,"content":..}]}}`
///   loads the project's rules. Success is 200 with the warnings as `{"issues":[...]}` (`{}`
///   without any); a file with errors is 400 INVALID_ARGUMENT `Error compiling rules:` followed
///   by one `L<line>:<column> <message>` line per diagnostic, and the project keeps its rules.
/// - `GET /emulator/v1/projects/{p}:ruleCoverage` and `:ruleCoverage.html`: the coverage report.
struct RulesAdmin: Sendable {
    let rules: ProjectRules

    /// The response to `endpoint` (`securityRules`, `ruleCoverage` or `ruleCoverage.html`).
    func respond(to endpoint: String, project: String, body: [UInt8]) throws -> HTTPResponse {
        switch endpoint {
        case "securityRules":
            return try loadRules(project: project, body: body)
        case "ruleCoverage":
            return .json(Array(rules.coverage(project: project).jsonReport().utf8))
        default:
            return HTTPResponse(
                status: .ok, contentType: "text/html; charset=UTF-8",
                body: Array(rules.coverage(project: project).htmlReport().utf8))
        }
    }

    private struct RulesBody: Decodable {
        struct Source: Decodable {
            var files: [File]
        }
        struct File: Decodable {
            var name: String?
            var content: String
        }
        var rules: Source
    }

    private func loadRules(project: String, body: [UInt8]) throws -> HTTPResponse {
        guard let decoded = try? JSONDecoder().decode(RulesBody.self, from: Data(body)) else {
            throw FirestoreError.invalidArgument("Payload isn't valid for request.")
        }
        guard decoded.rules.files.count == 1, let file = decoded.rules.files.first else {
            throw FirestoreError.invalidArgument(
                "A ruleset needs exactly one file in rules.files, it has \(decoded.rules.files.count).")
        }
        do {
            let warnings = try rules.load(
                RulesFile(source: file.content, fileName: file.name ?? "firestore.rules"), project: project)
            return .json(Array(RulesAdmin.issuesJSON(warnings).utf8))
        } catch {
            let lines = error.diagnostics.compactMap { diagnostic in
                diagnostic.location.map { "L\($0.line):\($0.column) \(diagnostic.message)" }
            }
            throw FirestoreError.invalidArgument((["Error compiling rules:"] + lines).joined(separator: "\n"))
        }
    }

    /// `{"issues":[...]}` with each diagnostic's position (offsets from 0, the end inclusive),
    /// description and severity, members in name order, as Google's emulator reports warnings;
    /// `{}` without any.
    static func issuesJSON(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "{}" }
        let issues = diagnostics.map { diagnostic -> JSONValue in
            let position: [JSONValue.Member]
            if let range = diagnostic.range {
                position = [
                    JSONValue.Member("column", JSONValue(Int64(range.start.column))),
                    JSONValue.Member("currentOffset", JSONValue(Int64(range.start.offset))),
                    JSONValue.Member("endOffset", JSONValue(Int64(max(range.start.offset, range.end.offset - 1)))),
                    JSONValue.Member("fileName", .string(diagnostic.fileName)),
                    JSONValue.Member("line", JSONValue(Int64(range.start.line))),
                ]
            } else {
                position = [JSONValue.Member("fileName", .string(diagnostic.fileName))]
            }
            return .object([
                JSONValue.Member("description", .string(diagnostic.message)),
                JSONValue.Member("severity", .string(diagnostic.severity.rawValue.uppercased())),
                JSONValue.Member("sourcePosition", .object(position)),
            ])
        }
        return JSONValue.object([JSONValue.Member("issues", .array(issues))]).serialized()
    }
}
