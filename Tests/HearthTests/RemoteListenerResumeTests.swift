import DocumentModel
import DocumentStore
import EmulatorServer
import Foundation
import Hearth
import Testing

/// A remote listener outlives its stream: when the server goes away and comes back on the same
/// port, it listens again and delivers what changed meanwhile, once.
@Suite("Remote listener resumes")
struct RemoteListenerResumeTests {
    @Test func documentListenerResumesAfterTheServerRestarts() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: folder.path, configuration: configuration)
        defer { try? store.close() }
        let name = try DocumentName(TestDatabase.database, "rooms/r1")

        let first = EmulatorServer(store: store, configuration: EmulatorServerConfiguration(port: 0))
        let firstRun = Task { try await first.run() }
        let address = try await first.listeningAddress
        let db = try Firestore.remote(host: address.host, port: address.port, projectID: TestDatabase.project)
        let room = db.collection("rooms").document("r1")
        try await room.setData(["n": 1])

        // Each snapshot's `n`, in order; -1 for a snapshot without it.
        let (values, sink) = AsyncStream<Int>.makeStream()
        let listening = Task {
            defer { sink.finish() }  // a listener that ends ends the values
            for try await snapshot in room.snapshots { sink.yield(snapshot.data()?["n"] as? Int ?? -1) }
        }
        var seen = values.makeAsyncIterator()
        #expect(await next(&seen, sink) == 1)

        // The server goes away; a change is committed while no server runs.
        firstRun.cancel()
        _ = try? await firstRun.value
        _ = try store.commit([.set(name, fields: ["n": 2])])

        let second = EmulatorServer(store: store, configuration: EmulatorServerConfiguration(port: address.port))
        let secondRun = Task { try await second.run() }
        _ = try await second.listeningAddress
        #expect(await next(&seen, sink) == 2, "the change made while the server was away, after reconnecting")

        try await room.setData(["n": 3])  // through the client, on the new server
        #expect(await next(&seen, sink) == 3, "the reconnected stream's next change, with no repeated snapshot before it")

        listening.cancel()
        await db.terminate()
        second.beginGracefulShutdown()
        try await secondRun.value
    }

    /// The next value; nil when the listener ended, or after 30 seconds (which ends `sink`).
    private func next(_ iterator: inout AsyncStream<Int>.Iterator, _ sink: AsyncStream<Int>.Continuation) async -> Int? {
        let timeout = Task {
            try await Task.sleep(for: .seconds(30))
            Issue.record("No snapshot within 30 s")
            sink.finish()
        }
        defer { timeout.cancel() }
        return await iterator.next()
    }
}
