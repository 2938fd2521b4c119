import DocumentModel
import DocumentStore
import Testing

@Suite("Listeners")
struct ListenerTests {
    private func usersQuery(_ fixture: StoreFixture, filter: QueryFilter? = nil, orderBy: [Order] = [], limit: Int? = nil)
        -> Query
    {
        Query(
            database: fixture.database, parent: .root,
            structured: StructuredQuery(from: .collection("users"), filter: filter, orderBy: orderBy, limit: limit))
    }

    private func names(_ snapshot: ListenSnapshot) -> [String] {
        snapshot.documents.map(\.name.documentID)
    }

    private func kinds(_ snapshot: ListenSnapshot) -> [String] {
        snapshot.changes.map { "\($0.kind) \($0.document.name.documentID) \($0.oldIndex)->\($0.newIndex)" }
    }

    @Test("a document listener sees creation, modification, deletion and re-creation")
    func documentLifecycle() async throws {
        let fixture = try StoreFixture()
        let alice = try fixture.name("users/alice")
        var snapshots = try fixture.store.listen(to: .document(alice)).makeAsyncIterator()
        let initial = try #require(try await snapshots.next())
        #expect(initial.documents.isEmpty)
        #expect(initial.isReset)
        try fixture.store.commit([.create(alice, fields: ["v": 1])])
        #expect(kinds(try #require(try await snapshots.next())) == ["added alice -1->0"])
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.set(alice, fields: ["v": 2])])
        let modified = try #require(try await snapshots.next())
        #expect(kinds(modified) == ["modified alice 0->0"])
        #expect(modified.documents.first?.fields["v"] == 2)
        try fixture.store.commit([.delete(alice)])
        #expect(kinds(try #require(try await snapshots.next())) == ["removed alice 0->-1"])
        try fixture.store.commit([.create(alice, fields: ["v": 3])])
        let recreated = try #require(try await snapshots.next())
        #expect(kinds(recreated) == ["added alice -1->0"])
        #expect(!recreated.isReset)
    }

    @Test("a query listener reports added, modified and removed documents with their indexes")
    func queryChanges() async throws {
        let fixture = try StoreFixture()
        let query = usersQuery(fixture, filter: .field(try FieldPath("active"), .equal, true), orderBy: [Order(try FieldPath("score"))])
        try fixture.store.commit([
            .set(try fixture.name("users/a"), fields: ["active": true, "score": 10]),
            .set(try fixture.name("users/b"), fields: ["active": true, "score": 20]),
            .set(try fixture.name("users/c"), fields: ["active": false, "score": 15]),
        ])
        var snapshots = try fixture.store.listen(to: .query(query)).makeAsyncIterator()
        let initial = try #require(try await snapshots.next())
        #expect(names(initial) == ["a", "b"])
        #expect(kinds(initial) == ["added a -1->0", "added b -1->1"])
        try fixture.store.commit([.set(try fixture.name("users/c"), fields: ["active": true, "score": 15])])
        let added = try #require(try await snapshots.next())
        #expect(names(added) == ["a", "c", "b"])
        #expect(kinds(added) == ["added c -1->1"])
        try fixture.store.commit([.set(try fixture.name("users/a"), fields: ["active": true, "score": 30])])
        #expect(kinds(try #require(try await snapshots.next())) == ["modified a 0->2"])
        try fixture.store.commit([.set(try fixture.name("users/b"), fields: ["active": false, "score": 20])])
        #expect(kinds(try #require(try await snapshots.next())) == ["removed b 1->-1"])
        try fixture.store.commit([.set(try fixture.name("other/x"), fields: ["active": true, "score": 1])])
        try fixture.store.commit([.delete(try fixture.name("users/c"))])
        let next = try #require(try await snapshots.next())
        #expect(kinds(next) == ["removed c 0->-1"], "a change outside the query produces no snapshot")
    }

    @Test("a limit query's window shifts when documents enter and leave it")
    func limitWindow() async throws {
        let fixture = try StoreFixture()
        let query = usersQuery(fixture, orderBy: [Order(try FieldPath("score"), .descending)], limit: 2)
        try fixture.store.commit(try [("a", 10), ("b", 20), ("c", 30)].map {
            .set(try fixture.name("users/\($0.0)"), fields: ["score": .integer(Int64($0.1))])
        })
        var snapshots = try fixture.store.listen(to: .query(query)).makeAsyncIterator()
        #expect(names(try #require(try await snapshots.next())) == ["c", "b"])
        try fixture.store.commit([.set(try fixture.name("users/d"), fields: ["score": 25])])
        let entered = try #require(try await snapshots.next())
        #expect(names(entered) == ["c", "d"])
        #expect(kinds(entered) == ["removed b 1->-1", "added d -1->1"])
        try fixture.store.commit([.delete(try fixture.name("users/c"))])
        let left = try #require(try await snapshots.next())
        #expect(names(left) == ["d", "b"], "the next document moves into the window")
        #expect(kinds(left) == ["removed c 0->-1", "added b -1->1"])
    }

    @Test("a commit of many documents arrives as one snapshot")
    func wholeCommit() async throws {
        let fixture = try StoreFixture()
        var snapshots = try fixture.store.listen(to: .query(usersQuery(fixture))).makeAsyncIterator()
        _ = try await snapshots.next()
        try fixture.store.commit(try (0..<300).map { .set(try fixture.name("users/u\($0)"), fields: ["n": .integer(Int64($0))]) })
        let snapshot = try #require(try await snapshots.next())
        #expect(snapshot.documents.count == 300)
        #expect(snapshot.changes.count == 300)
        #expect(snapshot.changes.allSatisfy { $0.kind == .added })
    }

    @Test("resuming with a fresh token delivers exactly the missed changes; a stale token resets")
    func resume() async throws {
        let fixture = try StoreFixture(retentionSeconds: 60)
        let query = usersQuery(fixture)
        try fixture.store.commit([.set(try fixture.name("users/a"), fields: ["v": 1]), .set(try fixture.name("users/b"), fields: ["v": 1])])
        let stream = try fixture.store.listen(to: .query(query))
        var first = stream.makeAsyncIterator()
        let token = try #require(try await first.next()).resumeToken
        stream.cancel()
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.set(try fixture.name("users/a"), fields: ["v": 2]), .delete(try fixture.name("users/b"))])
        try fixture.store.commit([.set(try fixture.name("users/c"), fields: ["v": 1])])
        var resumed = try fixture.store.listen(to: .query(query), resumeToken: token).makeAsyncIterator()
        let missed = try #require(try await resumed.next())
        #expect(!missed.isReset)
        #expect(kinds(missed) == ["removed b 1->-1", "added c -1->1", "modified a 0->0"])
        fixture.clock.advance(bySeconds: 120)
        var stale = try fixture.store.listen(to: .query(query), resumeToken: token).makeAsyncIterator()
        let reset = try #require(try await stale.next())
        #expect(reset.isReset)
        #expect(names(reset) == ["a", "c"])
        #expect(reset.changes.allSatisfy { $0.kind == .added })
    }

    @Test("a slow consumer does not hold up writers; it catches up with one snapshot of the latest state")
    func slowConsumer() async throws {
        let fixture = try StoreFixture()
        let counter = try fixture.name("users/counter")
        let stream = try fixture.store.listen(to: .document(counter))
        var snapshots = stream.makeAsyncIterator()
        _ = try await snapshots.next()
        for n in 1...3000 {
            try fixture.store.commit([.set(counter, fields: ["n": .integer(Int64(n))])])
        }
        let caughtUp = try #require(try await snapshots.next())
        #expect(caughtUp.documents.first?.fields["n"] == 3000)
        #expect(caughtUp.changes.count == 1)
        #expect(caughtUp.readTime == fixture.store.lastCommitTime)
    }

    @Test("cancelling a listener ends its stream and releases it")
    func cancellation() async throws {
        let fixture = try StoreFixture()
        let before = fixture.store.listenerCount
        let stream = try fixture.store.listen(to: .document(try fixture.name("users/x")))
        #expect(fixture.store.listenerCount == before + 1)
        let consumer = Task {
            var count = 0
            for try await _ in stream { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(50))
        stream.cancel()
        #expect(try await consumer.value == 1)
        #expect(fixture.store.listenerCount == before)
        let second = try fixture.store.listen(to: .document(try fixture.name("users/y")))
        let task = Task { for try await _ in second {} }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        _ = try? await task.value
        try await Task.sleep(for: .milliseconds(20))
        #expect(fixture.store.listenerCount == before)
    }
}
