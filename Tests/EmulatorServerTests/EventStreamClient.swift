import EmulatorServer
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A client of one Server-Sent Events response: sends `GET path` and collects what the server
/// sends, for tests to wait on.
final class EventStreamClient: Sendable {
    private let received = Mutex("")
    private let ended = Atomic<Bool>(false)

    /// Everything received so far (head, chunk framing and events).
    var text: String { received.withLock { $0 } }

    /// Whether the server closed the connection.
    var isClosed: Bool { ended.load(ordering: .acquiring) }

    /// Opens `path` on `address`, runs `body` with the client while the response arrives, then
    /// closes the connection.
    @discardableResult
    static func with<Result: Sendable>(
        _ address: ServerAddress, _ path: String, _ body: (EventStreamClient) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap.forTests()
            .connect(to: try address.socketAddress) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let client = EventStreamClient()
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: \(address)\r\n\r\n"))
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await buffer in inbound {
                        client.received.withLock { $0 += String(decoding: buffer.readableBytesView, as: UTF8.self) }
                    }
                    client.ended.store(true, ordering: .releasing)
                }
                defer { group.cancelAll() }
                return try await body(client)
            }
        }
    }

    /// Waits until what was received contains `fragment` (after the first `after` characters),
    /// failing after `timeout`. The default is long because it costs nothing when the text comes:
    /// the full suite on a loaded 2-core machine once kept a stream's first bytes back past 10 s.
    @discardableResult
    func wait(for fragment: String, after offset: Int = 0, timeout: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = self.text
            if text.count > offset, text.dropFirst(offset).contains(fragment) { return text }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw EventStreamTimeout(expected: fragment, received: text)
    }
}

/// What `EventStreamClient.wait` throws when the expected text does not arrive in time.
struct EventStreamTimeout: Error, CustomStringConvertible {
    let expected: String
    let received: String

    var description: String { "Did not receive \(expected) in time; received:\n\(received)" }
}
