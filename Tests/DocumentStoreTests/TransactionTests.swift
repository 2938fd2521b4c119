import DocumentModel
import DocumentStore
import Foundation
import Synchronization
import Testing

@Suite("Transactions")
struct TransactionTests {
    /// A read-modify-write increment of `field` through a transaction; returns the attempts used.
    private static func increment(_ store: DocumentStore, _ name: DocumentName, attempts: Counter) async throws {
        try await store.runTransaction(maxAttempts: 5) { transaction in
            attempts.add()
            let current = try await store.document(name, transaction: transaction)
            guard case .integer(let n)? = current?.fields["n"] else { return ([.set(name, fields: ["n": 1])], ()) }
            return ([.set(name, fields: ["n": .integer(n + 1)])], ())
        }
    }

    @Test("20 concurrent read-modify-write increments of one counter all commit, within 1 s per attempt")
    func contention() async throws {
        let fixture = try StoreFixture(systemClock: true)
        let store = fixture.store
        let counter = try fixture.name("counters/one")
        let attempts = Counter()
        let clock = ContinuousClock()
        try await withThrowingTaskGroup(of: Duration.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let start = clock.now
                    try await TransactionTests.increment(store, counter, attempts: attempts)
                    return clock.now - start
                }
            }
            for try await duration in group { #expect(duration < .seconds(60), "no contender stalls") }
        }
        #expect(try fixture.store.document(counter)?.fields["n"] == 20)
        // The first round deadlocks (all read, all write); the document is then hot and the
        // retries queue on its update lock instead of deadlocking again.
        #expect(attempts.value < 60, "contenders queue instead of failing: \(attempts.value) attempts")
    }

    @Test("100 increments spread over 5 counters all commit")
    func contentionOverCounters() async throws {
        let fixture = try StoreFixture(systemClock: true)
        let store = fixture.store
        let counters = try (0..<5).map { try fixture.name("counters/c\($0)") }
        let attempts = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { try await TransactionTests.increment(store, counters[index % 5], attempts: attempts) }
            }
            try await group.waitForAll()
        }
        for counter in counters { #expect(try fixture.store.document(counter)?.fields["n"] == 20) }
    }

    @Test("a write outside the transaction that cannot wait aborts the transaction that read the document")
    func conflictingWrite() async throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("t/doc")
        let other = try fixture.name("t/other")
        try fixture.store.commit([.set(doc, fields: ["v": 1])])
        let transaction = try fixture.store.beginTransaction()
        _ = try await fixture.store.document(doc, transaction: transaction)
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.set(doc, fields: ["v": 2])])
        let error = await #expect(throws: FirestoreError.self) {
            try await fixture.store.commit([.set(other, fields: ["x": 1])], transaction: transaction)
        }
        #expect(error?.code == .aborted)
        #expect(error?.message.contains("t/doc") == true, "the message names the document: \(error?.message ?? "")")
        #expect(try fixture.store.document(other) == nil)
        let reused = await #expect(throws: FirestoreError.self) { try await fixture.store.commit([], transaction: transaction) }
        #expect(reused?.code == .invalidArgument, "a finished transaction is unknown")
    }

    /// Commits `first` in a task and, once it waits, `second`: returns both outcomes.
    private static func commitOverlapping(
        _ store: DocumentStore, _ first: (TransactionID, [Write]), _ second: (TransactionID, [Write])
    ) async -> (first: Result<CommitResult, FirestoreError>, second: Result<CommitResult, FirestoreError>) {
        let firstCommit = Task { () -> Result<CommitResult, FirestoreError> in
            do { return .success(try await store.commit(first.1, transaction: first.0)) } catch let error as FirestoreError {
                return .failure(error)
            } catch { return .failure(FirestoreError(.internal, "\(error)")) }
        }
        try? await Task.sleep(for: .milliseconds(50))
        let secondResult: Result<CommitResult, FirestoreError>
        do { secondResult = .success(try await store.commit(second.1, transaction: second.0)) } catch let error as FirestoreError {
            secondResult = .failure(error)
        } catch { secondResult = .failure(FirestoreError(.internal, "\(error)")) }
        return (await firstCommit.value, secondResult)
    }

    /// The younger (second) transaction of a deadlock is aborted at its commit; the older commits.
    private static func expectYoungerAborted(
        _ outcome: (first: Result<CommitResult, FirestoreError>, second: Result<CommitResult, FirestoreError>),
        naming conflict: String
    ) {
        if case .failure(let error) = outcome.first { Issue.record("the older transaction failed: \(error)") }
        guard case .failure(let error) = outcome.second else {
            Issue.record("both transactions committed")
            return
        }
        #expect(error.code == .aborted)
        #expect(error.message.contains("Aborted due to cross-transaction contention"), "\(error.message)")
        #expect(error.message.contains(conflict), "the message names the conflict: \(error.message)")
    }

    @Test("transactions reading one document share it: neither waits nor aborts the other")
    func sharedReads() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let config = try fixture.name("settings/config")
        try store.commit([.set(config, fields: ["limit": 10])])
        let transactions = try (0..<10).map { _ in try store.beginTransaction() }
        for transaction in transactions {
            #expect(try await store.document(config, transaction: transaction)?.fields["limit"] == 10)
        }
        for (index, transaction) in transactions.enumerated() {
            try await store.commit([.set(try fixture.name("settings/user\(index)"), fields: ["limit": 10])],
                                   transaction: transaction)
        }
        // Were a committed reader still holding its shared lock, this commit would wait out the
        // lock wait and fail with ABORTED ("Transaction lock timeout"); it is not timed, since a
        // sanitizer build on a busy machine can take half a second for the commit alone.
        try await store.commitWaitingForLocks([.set(config, fields: ["limit": 20])])
        #expect(try store.document(config)?.fields["limit"] == 20)
    }

    @Test("lost update: two read-modify-writes of one document deadlock; the younger aborts at its commit")
    func lostUpdate() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let counter = try fixture.name("counters/one")
        try store.commit([.set(counter, fields: ["n": 0])])
        let older = try store.beginTransaction()
        let younger = try store.beginTransaction()
        for transaction in [older, younger] { _ = try await store.document(counter, transaction: transaction) }
        let outcome = await Self.commitOverlapping(
            store, (older, [.set(counter, fields: ["n": 1])]), (younger, [.set(counter, fields: ["n": 1])]))
        Self.expectYoungerAborted(outcome, naming: "counters/one")
        #expect(try store.document(counter)?.fields["n"] == 1)
    }

    @Test("write skew: each reads both documents and writes one; one aborts")
    func writeSkew() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let alice = try fixture.name("doctors/alice")
        let bob = try fixture.name("doctors/bob")
        try store.commit([.set(alice, fields: ["onCall": true]), .set(bob, fields: ["onCall": true])])
        let older = try store.beginTransaction()
        let younger = try store.beginTransaction()
        for transaction in [older, younger] { _ = try await store.documents([alice, bob], transaction: transaction) }
        let outcome = await Self.commitOverlapping(
            store, (older, [.set(alice, fields: ["onCall": false])]), (younger, [.set(bob, fields: ["onCall": false])]))
        Self.expectYoungerAborted(outcome, naming: "doctors/")
        #expect(try store.document(bob)?.fields["onCall"] == true)
    }

    @Test("phantom insert: both find no user named x and insert one; one aborts, naming the query range")
    func phantomInsert() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let named = try fixture.query("users", filter: try filter("username", .equal, "x"))
        let older = try store.beginTransaction()
        let younger = try store.beginTransaction()
        for transaction in [older, younger] { #expect(try await store.runQuery(named, transaction: transaction).documents.isEmpty) }
        let outcome = await Self.commitOverlapping(
            store, (older, [.create(try fixture.name("users/a"), fields: ["username": "x"])]),
            (younger, [.create(try fixture.name("users/b"), fields: ["username": "x"])]))
        Self.expectYoungerAborted(outcome, naming: "the query range of collection 'users' filtered on username")
        #expect(try fixture.ids(named) == ["a"])
    }

    @Test("phantom update: a document moved into the range another transaction queried conflicts with it")
    func phantomUpdate() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let existing = try fixture.name("users/existing")
        try store.commit([.set(existing, fields: ["username": "y"])])
        let named = try fixture.query("users", filter: try filter("username", .equal, "x"))
        let older = try store.beginTransaction()
        let younger = try store.beginTransaction()
        #expect(try await store.runQuery(named, transaction: older).documents.isEmpty)
        #expect(try await store.runQuery(named, transaction: younger).documents.isEmpty)
        _ = try await store.document(existing, transaction: younger)
        let outcome = await Self.commitOverlapping(
            store, (older, [.create(try fixture.name("users/new"), fields: ["username": "x"])]),
            (younger, [.set(existing, fields: ["username": "x"])]))
        Self.expectYoungerAborted(outcome, naming: "the query range")
        #expect(try fixture.ids(named) == ["new"])
    }

    @Test("count then insert: both count no user named x and insert one; one aborts")
    func countThenInsert() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let named = try fixture.query("users", filter: try filter("username", .equal, "x"))
        let count = AggregationQuery(query: named, aggregations: [Aggregation(.count(upTo: nil))])
        let older = try store.beginTransaction()
        let younger = try store.beginTransaction()
        for transaction in [older, younger] {
            #expect(try await store.runAggregation(count, transaction: transaction).fields["field_1"] == 0)
        }
        let outcome = await Self.commitOverlapping(
            store, (older, [.create(try fixture.name("users/a"), fields: ["username": "x"])]),
            (younger, [.create(try fixture.name("users/b"), fields: ["username": "x"])]))
        Self.expectYoungerAborted(outcome, naming: "the query range")
        #expect(try store.runAggregation(count).fields["field_1"] == 1)
    }

    @Test("a plain write into a queried range waits for the transaction's commit; one outside the range does not")
    func plainWriteWaitsForRange() async throws {
        let fixture = try StoreFixture(systemClock: true, lockWaitSeconds: 60)
        let store = fixture.store
        let named = try fixture.query("users", filter: try filter("username", .equal, "x"))
        let transaction = try store.beginTransaction()
        #expect(try await store.runQuery(named, transaction: transaction).documents.isEmpty)
        try await store.commitWaitingForLocks([.set(try fixture.name("users/other"), fields: ["username": "y"])])
        try await store.commitWaitingForLocks([.set(try fixture.name("posts/p"), fields: ["username": "x"])])
        let late = try fixture.name("users/late")
        let plain = Task { try await store.commitWaitingForLocks([.set(late, fields: ["username": "x"])]).commitTime }
        try await Task.sleep(for: .milliseconds(100))
        #expect(try store.document(late) == nil, "the plain write waits")
        let committed = try await store.commit(
            [.set(try fixture.name("claims/x"), fields: ["by": "t"])], transaction: transaction).commitTime
        #expect(try await plain.value > committed)
    }

    @Test("a limited query locks its results up to the last one; documents past it or outside the filter do not conflict")
    func limitedRange() async throws {
        let fixture = try StoreFixture(systemClock: true, lockWaitSeconds: 0.2)
        let store = fixture.store
        try fixture.put(["items/a": ["k": "L", "n": 1], "items/b": ["k": "L", "n": 2], "items/c": ["k": "L", "n": 3]])
        let query = try fixture.query("items", filter: try filter("k", .equal, "L"), orderBy: [try asc("n")], limit: 2)
        let transaction = try store.beginTransaction()
        #expect(try await store.runQuery(query, transaction: transaction).documents.map(\.name.documentID) == ["a", "b"])
        try await store.commitWaitingForLocks([.set(try fixture.name("items/d"), fields: ["k": "L", "n": 9])])
        try await store.commitWaitingForLocks([.set(try fixture.name("items/c"), fields: ["k": "L", "n": 4])])
        try await store.commitWaitingForLocks([.set(try fixture.name("items/e"), fields: ["k": "M", "n": 0])])
        let error = await #expect(throws: FirestoreError.self) {
            try await store.commitWaitingForLocks([.set(try fixture.name("items/f"), fields: ["k": "L", "n": 0])])
        }
        #expect(error?.code == .aborted)
        #expect(error?.message.contains("Transaction lock timeout") == true, "\(error?.message ?? "")")
        store.rollback(transaction)
    }

    @Test("range locks follow the query: composite filters, in, array-contains-any, collection groups, cursors")
    func rangeShapes() async throws {
        let fixture = try StoreFixture(systemClock: true, lockWaitSeconds: 0.2)
        let store = fixture.store
        try fixture.put(["c/start": ["n": 5]])
        // (query, a document inside its range, one outside)
        let cases: [(Query, String, MapValue, String, MapValue)] = [
            (try fixture.query("c", filter: and(try filter("a", .equal, 1), try filter("b", .greaterThan, 2))),
             "c/in1", ["a": 1, "b": 3], "c/out1", ["a": 1, "b": 2]),
            (try fixture.query("c", filter: or(try filter("a", .equal, 1), try filter("b", .equal, 2))),
             "c/in2", ["b": 2], "c/out2", ["a": 2, "b": 3]),
            (try fixture.query("c", filter: try filter("tag", .in, ["x", "y"])), "c/in3", ["tag": "y"], "c/out3", ["tag": "z"]),
            (try fixture.query("c", filter: try filter("tags", .arrayContainsAny, ["x"])),
             "c/in4", ["tags": ["w", "x"]], "c/out4", ["tags": ["w"]]),
            (try fixture.query("g", group: true, filter: try filter("k", .equal, 1)),
             "a/b/g/in5", ["k": 1], "a/b/h/out5", ["k": 1]),
            (try fixture.query("c", orderBy: [try asc("n")], startAt: QueryCursor(values: [5], before: false)),
             "c/in6", ["n": 6], "c/out6", ["n": 4]),
            (try fixture.query("c", filter: try filter("m", .greaterThanOrEqual, 0), orderBy: [try asc("m")],
                               endAt: QueryCursor(values: [10], before: false)),
             "c/in7", ["m": 10], "c/out7", ["m": 11]),
        ]
        for (index, (query, inside, insideFields, outside, outsideFields)) in cases.enumerated() {
            let transaction = try store.beginTransaction()
            _ = try await store.runQuery(query, transaction: transaction)
            try await store.commitWaitingForLocks([.set(try fixture.name(outside), fields: outsideFields)])
            let error = await #expect(throws: FirestoreError.self, "case \(index): a write into the range waits") {
                try await store.commitWaitingForLocks([.set(try fixture.name(inside), fields: insideFields)])
            }
            #expect(error?.code == .aborted, "case \(index)")
            store.rollback(transaction)
            try await store.commitWaitingForLocks([.set(try fixture.name(inside), fields: insideFields)])
        }
    }

    @Test("queries and aggregations in read-write and read-only transactions work on a fresh store and after the retention window")
    func readTimeIsNow() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let all = try fixture.query("items")
        let count = AggregationQuery(query: all, aggregations: [Aggregation(.count(upTo: nil))])
        for pass in 0..<2 {
            for options in [TransactionOptions.readWrite(), .readOnly()] {
                let transaction = try store.beginTransaction(options)
                #expect(try await store.runQuery(all, transaction: transaction).documents.count == pass)
                #expect(try await store.runAggregation(count, transaction: transaction).fields["field_1"] == .integer(Int64(pass)))
                store.rollback(transaction)
            }
            try store.commit([.set(try fixture.name("items/one"), fields: ["n": 1])])
            fixture.clock.advance(bySeconds: 2 * 3600)
        }
    }

    @Test("a commit waiting longer than the lock timeout is aborted; the reads before it never are")
    func lockTimeout() async throws {
        let fixture = try StoreFixture(systemClock: true, lockWaitSeconds: 0.2)
        let store = fixture.store
        let a = try fixture.name("t/a")
        let holder = try store.beginTransaction()
        _ = try await store.document(a, transaction: holder)
        let waiter = try store.beginTransaction()
        _ = try await store.document(a, transaction: waiter)
        let error = await #expect(throws: FirestoreError.self) {
            try await store.commit([.set(a, fields: ["v": 1])], transaction: waiter)
        }
        #expect(error?.code == .aborted)
        #expect(error?.message.contains("Transaction lock timeout") == true, "\(error?.message ?? "")")
        try await store.commit([.set(a, fields: ["v": 2])], transaction: holder)
        #expect(try store.document(a)?.fields["v"] == 2)
    }

    @Test("an aborted transaction still reads (without locks); only its commit fails")
    func abortedTransactionReads() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let a = try fixture.name("t/a")
        try store.commit([.set(a, fields: ["v": 1])])
        let transaction = try store.beginTransaction()
        _ = try await store.document(a, transaction: transaction)
        try store.commit([.set(a, fields: ["v": 2])])  // cannot wait: aborts the reader
        #expect(try await store.document(a, transaction: transaction)?.fields["v"] == 2)
        #expect(try await store.runQuery(try fixture.query("t"), transaction: transaction).documents.count == 1)
        let error = await #expect(throws: FirestoreError.self) { try await store.commit([], transaction: transaction) }
        #expect(error?.code == .aborted)
    }

    @Test("read-only transactions read at one read time and refuse writes; rollback of unknown ids succeeds")
    func readOnly() async throws {
        let fixture = try StoreFixture()
        let a = try fixture.name("t/a")
        let first = try fixture.store.commit([.set(a, fields: ["v": 1])]).commitTime
        let transaction = try fixture.store.beginTransaction(.readOnly())
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.set(a, fields: ["v": 2])])
        let read = try await fixture.store.documents([a], transaction: transaction)
        #expect(read.readTime == first)
        #expect(read.documents[0]?.fields["v"] == 1)
        let error = await #expect(throws: FirestoreError.self) {
            try await fixture.store.commit([.set(a, fields: ["v": 3])], transaction: transaction)
        }
        #expect(error?.code == .invalidArgument)
        fixture.store.rollback(TransactionID(bytes: [1, 2, 3]))
        fixture.store.rollback(transaction)
    }

    @Test("idle transactions expire and release their locks")
    func expiry() async throws {
        let fixture = try StoreFixture()
        let a = try fixture.name("t/a")
        let idle = try fixture.store.beginTransaction()
        _ = try await fixture.store.document(a, transaction: idle)
        fixture.clock.advance(bySeconds: 61)
        let next = try fixture.store.beginTransaction()
        _ = try await fixture.store.document(a, transaction: next)
        let error = await #expect(throws: FirestoreError.self) { try await fixture.store.commit([], transaction: idle) }
        #expect(error?.code == .aborted)
        try await fixture.store.commit([.set(a, fields: ["v": 1])], transaction: next)
    }

    @Test("random concurrent transfers keep the total constant at every read time")
    func transfersKeepInvariant() async throws {
        let fixture = try StoreFixture(systemClock: true)
        let store = fixture.store
        let accounts = try (0..<6).map { try fixture.name("accounts/a\($0)") }
        try fixture.store.commit(accounts.map { .set($0, fields: ["balance": 100]) })
        var times: [Timestamp] = [try #require(fixture.store.lastCommitTime)]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    for _ in 0..<15 {
                        let from = accounts[Int.random(in: 0..<6, using: &generator)]
                        let to = accounts[Int.random(in: 0..<6, using: &generator)]
                        guard from != to else { continue }
                        let amount = Int64.random(in: 1...30, using: &generator)
                        try await store.runTransaction { transaction in
                            let read = try await store.documents([from, to], transaction: transaction)
                            guard case .integer(let a)? = read.documents[0]?.fields["balance"],
                                case .integer(let b)? = read.documents[1]?.fields["balance"]
                            else { throw FirestoreError(.internal, "account missing") }
                            return ([.set(from, fields: ["balance": .integer(a - amount)]),
                                     .set(to, fields: ["balance": .integer(b + amount)])], ())
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        times.append(try #require(fixture.store.lastCommitTime))
        let start = times[0].microsecondsSinceEpoch
        let end = times[1].microsecondsSinceEpoch
        for step in 0...40 {
            let time = Timestamp(microsecondsSinceEpoch: start + (end - start) * Int64(step) / 40)
            let read = try fixture.store.documents(accounts, readTime: time)
            let total = read.documents.reduce(Int64(0)) { sum, document in
                guard case .integer(let balance)? = document?.fields["balance"] else { return sum }
                return sum + balance
            }
            #expect(total == 600, "total at \(time)")
        }
    }
}

/// A thread-safe counter for tests.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
