import DocumentModel
import NIOHTTP1

/// One HTTP response of the REST gateway.
struct HTTPResponse: Sendable {
    var status: HTTPResponseStatus
    var contentType: String?
    var body: [UInt8]
    /// Where a redirect points (the `location` header), if anywhere.
    var location: String? = nil

    /// A JSON body (`application/json; charset=UTF-8`).
    static func json(_ bytes: [UInt8], status: HTTPResponseStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=UTF-8", body: bytes)
    }

    /// A JSON body of `value`.
    static func json(_ value: JSONValue, status: HTTPResponseStatus = .ok) -> HTTPResponse {
        json(Array(value.serialized().utf8), status: status)
    }

    /// A plain-text body, as the emulator's `GET /` (`Ok`) and its unknown paths (`Not Found`).
    static func text(_ text: String, status: HTTPResponseStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=UTF-8", body: Array((text + "\n").utf8))
    }

    /// Google's JSON error body for `status`.
    static func error(_ status: WireStatus) -> HTTPResponse {
        json(Array(status.restErrorBody.serialized(pretty: false).utf8), status: status.httpStatus)
    }

    /// The answer to a path that names no resource or method, as Google's emulator gives it.
    static let notFound = text("Not Found", status: .notFound)
}
