import DocumentModel
import Foundation
import Hearth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The emulator's admin endpoints over HTTP/1.1, as `@firebase/rules-unit-testing` calls them.
struct EmulatorAdminClient: Sendable {
    let host: String
    let port: Int
    let projectID: String

    private var projectURL: String {
        let address = host.contains(":") ? "[\(host)]" : host
        return "http://\(address):\(port)/emulator/v1/projects/\(projectID)"
    }

    /// `PUT :securityRules` with the rules as the one file of the ruleset.
    func loadRules(_ rules: RulesSource) async throws {
        let body = try JSONSerialization.data(
            withJSONObject: ["rules": ["files": [["name": rules.fileName, "content": rules.text]]]])
        _ = try await send("PUT", "\(projectURL):securityRules", body: body)
    }

    /// `DELETE /databases/(default)/documents`: every document of the project.
    func clearDocuments() async throws {
        _ = try await send("DELETE", "\(projectURL)/databases/(default)/documents")
    }

    /// `GET :ruleCoverage` (JSON) or `:ruleCoverage.html`.
    func coverage(html: Bool) async throws -> String {
        String(decoding: try await send("GET", "\(projectURL):ruleCoverage\(html ? ".html" : "")"), as: UTF8.self)
    }

    /// The response body of a request answered with a 2xx status.
    ///
    /// - Throws: `FirestoreError` with the status of the emulator's error body (its message
    ///   included), or `.unavailable` when the emulator cannot be reached.
    private func send(_ method: String, _ address: String, body: Data? = nil) async throws -> Data {
        guard let url = URL(string: address) else {
            throw FirestoreError(.invalidArgument, "Not a valid emulator address: \(address)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw FirestoreError(.unavailable, "The emulator at \(host):\(port) did not answer \(method) \(url.path): \(error)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw EmulatorAdminClient.error(status: status, body: data) }
        return data
    }

    /// The error of a failed admin request: Google's `{"error":{"status":..,"message":..}}`
    /// body when there is one.
    static func error(status: Int, body: Data) -> FirestoreError {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let details = object?["error"] as? [String: Any]
        let code = (details?["status"] as? String).flatMap { name in FirestoreErrorCode.allCases.first { $0.name == name } }
        let message = details?["message"] as? String ?? String(decoding: body, as: UTF8.self)
        return FirestoreError(code ?? (status == 400 ? .invalidArgument : .unknown), "HTTP \(status): \(message)")
    }
}
