import EmulatorServer
import Foundation
import NIOCore
import NIOPosix

/// A minimal HTTP/1.1 client over a raw TCP connection: sends exactly the bytes a test gives
/// (well-formed requests or garbage) and reads the whole answer until the server closes the
/// connection or a timeout passes.
struct RawHTTPClient: Sendable {
    let address: ServerAddress

    /// A parsed HTTP response.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String

        /// The body parsed as JSON.
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) }

        /// `error.status` of Google's JSON error body.
        var errorStatus: String? { ((json as? [String: Any])?["error"] as? [String: Any])?["status"] as? String }
    }

    /// Sends a request with `Connection: close` and returns the response.
    func send(
        _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]
    ) async throws -> Response {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let body { request += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        request += "\r\n" + (body ?? "")
        return try Response(parsing: try await exchange(Array(request.utf8)))
    }

    /// Sends `bytes` (and `later` once `delay` has passed) and returns everything the server
    /// sends back before it closes the connection or what it sent so far satisfies `until` (or
    /// throws once `timeout` seconds pass).
    func exchange(
        _ bytes: [UInt8], thenAfter delay: Duration = .zero, send later: [UInt8] = [], timeout: Double = 60,
        until: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }
    ) async throws -> [UInt8] {
        let channel = try await ClientBootstrap.forTests()
            .connect(to: try address.socketAddress) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: bytes))
            if !later.isEmpty {
                try await Task.sleep(for: delay)
                // The server may have closed the connection meanwhile: what it sent is the answer.
                try? await outbound.write(ByteBuffer(bytes: later))
            }
            return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                group.addTask {
                    var received: [UInt8] = []
                    for try await buffer in inbound {
                        received += Array(buffer.readableBytesView)
                        if until(received) { break }
                    }
                    return received
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return nil
                }
                defer { group.cancelAll() }
                guard let received = try await group.next() ?? nil else {
                    throw ExchangeTimeout(seconds: timeout)
                }
                return received
            }
        }
    }
}

/// The server neither closed the connection nor sent an answer the test waits for in time.
struct ExchangeTimeout: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "no complete answer from the server within \(seconds) s" }
}

extension ServerAddress {
    /// The address as a socket address: connecting to it needs no name resolution.
    var socketAddress: SocketAddress {
        get throws { try SocketAddress(ipAddress: host, port: port) }
    }
}

extension ClientBootstrap {
    /// A bootstrap on NIO's shared event loops that waits up to a minute for a connection. The
    /// tests' servers and clients share those two loops, and with every suite in parallel under
    /// a sanitizer a loop can be busy for more than NIO's default 10 s (a test with 1,000 streams
    /// on one connection, say): the connection is made, but its completion waits for the loop.
    static func forTests() -> ClientBootstrap {
        ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connectTimeout(.seconds(60))
    }
}

extension RawHTTPClient.Response {
    /// Parses a response that ends with the connection (`Connection: close`).
    init(parsing bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw CocoaError(.propertyListReadCorrupt) }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw CocoaError(.propertyListReadCorrupt) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.init(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}
