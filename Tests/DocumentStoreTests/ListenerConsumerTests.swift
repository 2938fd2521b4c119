import DocumentModel
import DocumentStore
import QueryEngine
import Synchronization
import Testing

@Suite("Listener streams iterated by several tasks")
struct ListenerConsumerTests {
    /// The newest snapshot version any consumer has received.
    private final class Progress: Sendable {
        let latest = Mutex<Int64>(0)
    }

    private func usersQuery(_ fixture: StoreFixture) -> Query {
        Query(database: fixture.database, parent: .root, structured: StructuredQuery(from: .collection("users")))
    }

    /// `documents` with `changes` applied in order, or nil if an index is out of place.
    private func applying(_ changes: [ListenChange], to documents: [Document]) -> [Document]? {
        var result = documents
        for change in changes {
            if change.kind != .added {
                guard result.indices.contains(change.oldIndex), result[change.oldIndex].name == change.document.name
                else { return nil }
                result.remove(at: change.oldIndex)
            }
            if change.kind != .removed {
                guard (0...result.count).contains(change.newIndex) else { return nil }
                result.insert(change.document, at: change.newIndex)
            }
        }
        return result
    }

    @Test(
        "two tasks iterating one stream during commits each get distinct snapshots whose diffs chain in version order",
        .timeLimit(.minutes(3)))  // 300 commits: over a minute under AddressSanitizer on a loaded machine
    func twoConsumersShareSnapshots() async throws {
        let fixture = try StoreFixture()
        let stream = try fixture.store.listen(to: .query(usersQuery(fixture)))
        let progress = Progress()
        let consumers = (0..<2).map { _ in
            Task {
                var received: [ListenSnapshot] = []
                for try await snapshot in stream {
                    received.append(snapshot)
                    progress.latest.withLock { $0 = max($0, snapshot.resumeToken) }
                }
                return received
            }
        }
        for n in 0..<300 {
            let name = try fixture.name("users/u\(n % 7)")
            try fixture.store.commit([n % 5 == 4 ? .delete(name) : .set(name, fields: ["n": .integer(Int64(n))])])
            await Task.yield()
        }
        let last = try #require(fixture.store.lastCommitTime).microsecondsSinceEpoch
        let deadline = ContinuousClock.now + .seconds(20)
        while progress.latest.withLock({ $0 }) < last, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        stream.cancel()
        var perConsumer: [[ListenSnapshot]] = []
        for consumer in consumers { perConsumer.append(try await consumer.value) }

        for received in perConsumer {
            let versions = received.map(\.resumeToken)
            #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "one consumer's versions go backwards")
        }
        let all = perConsumer.flatMap { $0 }.sorted { $0.resumeToken < $1.resumeToken }
        #expect(Set(all.map(\.resumeToken)).count == all.count, "a version was delivered twice")
        #expect(all.first?.isReset == true)
        #expect(all.dropFirst().allSatisfy { !$0.isReset })
        #expect(all.last?.resumeToken == last, "the last commit was never delivered")
        var documents: [Document] = []
        for snapshot in all {
            let applied = applying(snapshot.changes, to: documents)
            #expect(applied == snapshot.documents, "the changes at \(snapshot.resumeToken) do not chain")
            documents = snapshot.documents
        }
        let current = try fixture.store.runQuery(usersQuery(fixture))
        #expect(documents == current.documents)
    }

    @Test("cancelling the task of one of two waiting consumers ends the stream for both", .timeLimit(.minutes(1)))
    func cancellingOneWaitingConsumerEndsBoth() async throws {
        let fixture = try StoreFixture()
        let stream = try fixture.store.listen(to: .document(try fixture.name("users/x")))
        let consumers = (0..<2).map { _ in
            Task {
                var count = 0
                for try await _ in stream { count += 1 }
                return count
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        consumers[1].cancel()
        var total = 0
        for consumer in consumers { total += (try? await consumer.value) ?? 0 }
        #expect(total == 1, "only the initial snapshot was delivered, to one consumer")
        #expect(fixture.store.listenerCount == 0)
    }
}
