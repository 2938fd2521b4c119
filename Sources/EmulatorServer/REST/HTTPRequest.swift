import NIOHTTP1

/// One HTTP/1.1 request as the REST gateway sees it: method, percent-decoded path segments,
/// query parameters, the `Authorization` header and the whole body.
struct HTTPRequest: Sendable {
    var method: HTTPMethod
    /// The path as sent, for logs (`/v1/projects/p/databases/(default)/documents/a/b`).
    var rawPath: String
    /// The path's segments, each percent-decoded; `nil` when the encoding is invalid.
    var segments: [String]?
    /// The query parameters in order, names and values percent-decoded (`+` is a space).
    var query: [(name: String, value: String)]
    /// The `Authorization` header, if present.
    var authorization: String?
    /// The body bytes (empty when there is none).
    var body: [UInt8]
    /// The server's address on the connection the request came on, if known.
    var serverAddress: ServerAddress?

    /// The request of `head` and `body`, received at `serverAddress`.
    init(head: HTTPRequestHead, body: [UInt8], serverAddress: ServerAddress? = nil) {
        method = head.method
        let uri = head.uri
        let pathPart = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        rawPath = String(pathPart[0])
        let trimmed = rawPath.hasPrefix("/") ? rawPath.dropFirst() : Substring(rawPath)
        let decoded = trimmed.split(separator: "/", omittingEmptySubsequences: false).map {
            HTTPRequest.percentDecoded($0, plusIsSpace: false)
        }
        segments = decoded.contains(where: { $0 == nil }) ? nil : decoded.compactMap { $0 }
        query = []
        if pathPart.count == 2 {
            for pair in pathPart[1].split(separator: "&") where !pair.isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = HTTPRequest.percentDecoded(parts[0], plusIsSpace: true) ?? String(parts[0])
                let value = parts.count == 2 ? HTTPRequest.percentDecoded(parts[1], plusIsSpace: true) ?? "" : ""
                query.append((name, value))
            }
        }
        authorization = head.headers.first(name: "authorization")
        self.body = body
        self.serverAddress = serverAddress
    }

    /// `text` with `%XX` escapes decoded as UTF-8, or `nil` for a bad escape or invalid UTF-8.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
