import Hearth
import Synchronization
import Testing

/// Listener tests. The remote backend listens through the server's `Listen` stream.
@Suite("Listeners on both backends")
struct ListenerTests {
    /// Whether `condition` becomes true within a few seconds.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test(arguments: BackendKind.allCases)
    func documentSnapshotsFollowChanges(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("rooms/a")
            var iterator = ref.snapshots.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            #expect(!first.exists && !first.metadata.isFromCache)
            try await ref.setData(["open": true])
            let second = try #require(try await iterator.next())
            #expect(second.get("open") as? Bool == true)
            try await ref.delete()
            let third = try #require(try await iterator.next())
            #expect(!third.exists)
            // What a listener delivered answers cache reads.
            #expect(try await ref.getDocument(source: .cache).exists == false)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func querySnapshotsReportChanges(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let rooms = test.db.collection("rooms")
            try await rooms.document("a").setData(["size": 1])
            try await rooms.document("b").setData(["size": 5])
            var iterator = rooms.order(by: "size").snapshots.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            #expect(first.documents.map(\.documentID) == ["a", "b"])
            #expect(first.documentChanges.map(\.type) == [.added, .added])

            try await rooms.document("a").updateData(["size": 9])
            let moved = try #require(try await iterator.next())
            #expect(moved.documents.map(\.documentID) == ["b", "a"])
            let change = try #require(moved.documentChanges.first)
            #expect(moved.documentChanges.count == 1)
            #expect(change.type == .modified && change.oldIndex == 0 && change.newIndex == 1)

            try await rooms.document("b").delete()
            let removed = try #require(try await iterator.next())
            #expect(removed.documentChanges.map(\.type) == [.removed])
            #expect(removed.documentChanges.first?.oldIndex == 0 && removed.documentChanges.first?.newIndex == -1)

            try await rooms.document("c").setData(["size": 0])
            let added = try #require(try await iterator.next())
            #expect(added.documents.map(\.documentID) == ["c", "a"])
            #expect(added.documentChanges.map(\.type) == [.added] && added.documentChanges.first?.newIndex == 0)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func callbackListenersStopWhenRemoved(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("rooms/a")
            let (values, continuation) = AsyncStream<Int?>.makeStream()
            let registration = ref.addSnapshotListener { snapshot, error in
                #expect(error == nil)
                continuation.yield(snapshot?.get("n") as? Int)
            }
            var received = values.makeAsyncIterator()
            #expect(await received.next() == .some(nil))
            try await ref.setData(["n": 1])
            #expect(await received.next() == .some(1))
            registration.remove()

            let queryValues = AsyncStream<Int>.makeStream()
            let queryRegistration = test.db.collection("rooms").addSnapshotListener { snapshot, _ in
                queryValues.continuation.yield(snapshot?.count ?? -1)
            }
            var counts = queryValues.stream.makeAsyncIterator()
            #expect(await counts.next() == 1)
            try await ref.setData(["n": 2])
            #expect(await counts.next() == 1)
            try await test.db.document("rooms/b").setData(["n": 3])
            #expect(await counts.next() == 2)
            queryRegistration.remove()
            // Removing the registrations removes the store's listeners.
            #expect(await ListenerTests.eventually { test.store.listenerCount == 0 })
        }
    }

    @Test(arguments: BackendKind.allCases)
    func deniedListenersReportTheError(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind, rules: SecurityRulesTests.rules) { test in
            let guest = test.as(.unauthenticated)
            await expectError(.permissionDenied) {
                for try await _ in guest.document("users/alice").snapshots {}
            }
            let (errors, continuation) = AsyncStream<FirestoreErrorCode?>.makeStream()
            let registration = guest.collection("users").addSnapshotListener { snapshot, error in
                continuation.yield((error as? FirestoreError)?.code)
            }
            var iterator = errors.makeAsyncIterator()
            #expect(await iterator.next() == .some(.permissionDenied))
            registration.remove()
        }
    }
}
