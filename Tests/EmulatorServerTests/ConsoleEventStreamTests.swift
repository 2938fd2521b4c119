import DocumentStore
@testable import EmulatorServer
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The console's Server-Sent Events: new requests, a listener inside the server, and streams
/// that end with their client and with the server.
@Suite struct ConsoleEventStreamTests {
    private let documents = "/v1/projects/demo-test/databases/(default)/documents"
    private let owner = ["Authorization": "Bearer owner"]

    @Test func requestStreamDeliversNewRequests() async throws {
        try await TestServer.run { server in
            _ = try await server.http.send("GET", "\(documents)/before/x")
            try await EventStreamClient.with(server.address, "/ui/api/requests/events") { client in
                let head = try await client.wait(for: "\r\n\r\n")
                #expect(head.hasPrefix("HTTP/1.1 200 OK"))
                #expect(head.lowercased().contains("content-type: text/event-stream"))
                #expect(head.lowercased().contains("cache-control: no-cache"))
                _ = try await server.http.send("GET", "\(documents)/after/y")
                let text = try await client.wait(for: "after/y")
                #expect(text.contains("id: 2\n"))
                #expect(text.contains("event: request\n"))
                #expect(text.contains(#""path":"\#(documents)/after/y""#))
                #expect(text.contains(#""status":"NOT_FOUND""#))
                // Only requests made after the stream opened.
                #expect(!text.contains("before/x"))
            }
        }
    }

    @Test func listenStreamSendsReadyThenChanges() async throws {
        try await TestServer.run { server in
            let created = try await server.http.send(
                "POST", "\(documents)/users?documentId=alice", body: #"{"fields": {"n": {"integerValue": "1"}}}"#,
                headers: owner)
            #expect(created.status == 200)
            let path = "/ui/api/listen?database=projects/demo-test/databases/(default)&path=users"
            try await EventStreamClient.with(server.address, path) { client in
                let ready = try await client.wait(for: "event: ready")
                let readyData = try await client.wait(for: "users/alice")
                #expect(readyData.contains(#""n":{"integerValue":"1"}"#))
                let offset = ready.count
                _ = try await server.http.send(
                    "POST", "\(documents)/users?documentId=bob", body: #"{"fields": {"n": {"integerValue": "2"}}}"#,
                    headers: owner)
                let changed = try await client.wait(for: "users/bob", after: offset)
                #expect(changed.dropFirst(offset).contains("event: change"))
                #expect(changed.contains(#"{"document":{"createTime""#))
                _ = try await server.http.send("DELETE", "\(documents)/users/alice", headers: owner)
                try await client.wait(
                    for: #"{"deleted":"projects/demo-test/databases/(default)/documents/users/alice"}"#)
            }
        }
    }

    @Test func listenStreamSendsTheFirstPageThenChangesBeyondIt() async throws {
        try await TestServer.run { server in
            let writes = (0..<60).map { index in
                #"{"update": {"name": "\#(TestServer.name(String(format: "many/d%02d", index)))"}}"#
            }
            let commit = try await server.http.send(
                "POST", "\(documents):commit", body: #"{"writes": [\#(writes.joined(separator: ","))]}"#, headers: owner)
            #expect(commit.status == 200)
            let path = "/ui/api/listen?database=projects/demo-test/databases/(default)&path=many"
            try await EventStreamClient.with(server.address, path) { client in
                let ready = try await client.wait(for: "many/d49")
                #expect(!ready.contains("many/d50"))
                _ = try await server.http.send(
                    "PATCH", "\(documents)/many/d57", body: #"{"fields": {"seen": {"booleanValue": true}}}"#, headers: owner)
                let changed = try await client.wait(for: "many/d57", after: ready.count)
                #expect(changed.dropFirst(ready.count).contains("event: change"))
                #expect(changed.contains(#""seen":{"booleanValue":true}"#))
            }
        }
    }

    @Test func listenStreamOfADocument() async throws {
        try await TestServer.run { server in
            let path = "/ui/api/listen?database=projects/demo-test/databases/(default)&path=users/carol"
            try await EventStreamClient.with(server.address, path) { client in
                try await client.wait(for: #"data: {"documents":[]}"#)
                _ = try await server.http.send("PATCH", "\(documents)/users/carol", body: "{}", headers: owner)
                try await client.wait(for: "event: change")
                try await client.wait(for: "users/carol")
            }
        }
    }

    @Test func listenNeedsADatabaseAndAPath() async throws {
        try await TestServer.run { server in
            let response = try await server.http.send("GET", "/ui/api/listen?path=users")
            #expect(response.status == 400)
            #expect(response.errorStatus == "INVALID_ARGUMENT")
            let root = try await server.http.send("GET", "/ui/api/listen?database=projects/p/databases/(default)&path=")
            #expect(root.status == 400)
        }
    }

    @Test func streamEndsWhenTheClientLeaves() async throws {
        try await TestServer.run { server in
            let path = "/ui/api/listen?database=projects/demo-test/databases/(default)&path=users"
            try await EventStreamClient.with(server.address, "/ui/api/requests/events") { client in
                try await client.wait(for: "\r\n\r\n")
                try await EventStreamClient.with(server.address, path) { listening in
                    try await listening.wait(for: "event: ready")
                }
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while server.server.eventStreams.count > 0 || server.server.store.listenerCount > 0
                || server.server.requestLog.subscriberCount > 0, ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.server.eventStreams.count == 0)
            #expect(server.server.store.listenerCount == 0)
            #expect(server.server.requestLog.subscriberCount == 0)
        }
    }

    @Test func serverReturnsOnceItsStreamsEndedSoTheStoreCloses() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DocumentStore(path: folder.path)
        let clients = Mutex<[any Channel]>([])
        defer { for channel in clients.withLock({ $0 }) { channel.close(promise: nil) } }
        let stopped = try await withEmulatorServer(store: store, configuration: EmulatorServerConfiguration(port: 0)) {
            server in
            let address = try await server.listeningAddress
            for path in ["users", "users/alice", "settings"] {
                let channel = try await ClientBootstrap.forTests()
                    .connect(to: try address.socketAddress).get()
                clients.withLock { $0.append(channel) }
                let target = "/ui/api/listen?database=projects/demo-test/databases/(default)&path=\(path)"
                try await channel.writeAndFlush(ByteBuffer(string: "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n"))
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while server.eventStreams.count < 3, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.eventStreams.count == 3)
            return server
        }
        // The server has stopped with three streams open (their clients never left): every
        // stream's task has finished by then, so nothing reads the store and it closes.
        #expect(stopped.eventStreams.count == 0)
        #expect(store.listenerCount == 0)
        try store.close()
    }

    @Test func serverStopsPromptlyWithAnOpenStream() async throws {
        let client = Mutex<(any Channel)?>(nil)
        let stopping = Mutex<ContinuousClock.Instant?>(nil)
        let watchdog = Mutex<Task<Void, Never>?>(nil)
        try await TestServer.run { server in
            let channel = try await ClientBootstrap.forTests()
                .connect(to: try server.address.socketAddress).get()
            client.withLock { $0 = channel }
            try await channel.writeAndFlush(ByteBuffer(string: "GET /ui/api/requests/events HTTP/1.1\r\nHost: x\r\n\r\n"))
            let deadline = ContinuousClock.now + .seconds(10)
            while server.server.eventStreams.count == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.server.eventStreams.count == 1)
            // Should the server wait for the stream, the client gives up after 60 s so the test ends.
            watchdog.withLock {
                $0 = Task {
                    try? await Task.sleep(for: .seconds(60))
                    if !Task.isCancelled { try? await channel.close() }
                }
            }
            stopping.withLock { $0 = .now }
        }
        let elapsed = ContinuousClock.now - stopping.withLock { $0! }
        watchdog.withLock { $0?.cancel() }
        // Well before the client's watchdog: the server did not wait for the stream (a stop takes
        // well under a second; the margin is for a loaded 2-core machine or a sanitizer build).
        #expect(elapsed < .seconds(30), "the server took \(elapsed) to stop")
        // The server, not the client, closed the connection.
        let channel = try #require(client.withLock { $0 })
        try await channel.closeFuture.get()
    }
}
