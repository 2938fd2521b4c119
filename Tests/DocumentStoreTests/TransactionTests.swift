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
        #expect(attempts.value < 40, "locks make contenders queue instead of failing: \(attempts.value) attempts")
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

    @Test("a write outside the transaction to a document it read aborts its commit, writing nothing")
    func conflictingWrite() async throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("t/doc")
        let other = try fixture.name("t/other")
        try fixture.store.commit([.set(doc, fields: ["v": 1])])
        let transaction = try fixture.store.beginTransaction()
        _ = try await fixture.store.document(doc, transaction: transaction)
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.set(doc, fields: ["v": 2])])
        let error = #expect(throws: FirestoreError.self) {
            try fixture.store.commit([.set(other, fields: ["x": 1])], transaction: transaction)
        }
        #expect(error?.code == .aborted)
        #expect(try fixture.store.document(other) == nil)
        let reused = #expect(throws: FirestoreError.self) { try fixture.store.commit([], transaction: transaction) }
        #expect(reused?.code == .invalidArgument, "a finished transaction is unknown")
    }

    /// Two transactions, the older holding `t/a` and the younger `t/b`: each asking for the
    /// other's document closes a cycle.
    private static func crossedLocks() async throws
        -> (StoreFixture, a: DocumentName, b: DocumentName, older: TransactionID, younger: TransactionID)
    {
        let fixture = try StoreFixture()
        let a = try fixture.name("t/a")
        let b = try fixture.name("t/b")
        let older = try fixture.store.beginTransaction()
        let younger = try fixture.store.beginTransaction()
        _ = try await fixture.store.document(a, transaction: older)
        _ = try await fixture.store.document(b, transaction: younger)
        return (fixture, a, b, older, younger)
    }

    @Test("an older transaction that would deadlock with a younger one wounds it; the younger one gets ABORTED")
    func woundWait() async throws {
        let (fixture, a, b, older, younger) = try await Self.crossedLocks()
        let store = fixture.store
        let youngerWaits = Task { try await store.document(a, transaction: younger) }  // waits for the older one
        try await Task.sleep(for: .milliseconds(50))
        _ = try await store.document(b, transaction: older)  // would close the cycle: wounds the younger one
        let error = await #expect(throws: FirestoreError.self) { _ = try await youngerWaits.value }
        #expect(error?.code == .aborted)
        try store.commit([.set(a, fields: ["by": "older"]), .set(b, fields: ["by": "older"])], transaction: older)
        #expect(try store.document(b)?.fields["by"] == "older")
    }

    @Test("a younger transaction that would deadlock with an older one is aborted itself")
    func youngerRequesterAborted() async throws {
        let (fixture, a, b, older, younger) = try await Self.crossedLocks()
        let store = fixture.store
        let olderWaits = Task { try await store.document(b, transaction: older) }  // waits for the younger one
        try await Task.sleep(for: .milliseconds(50))
        let error = await #expect(throws: FirestoreError.self) { _ = try await store.document(a, transaction: younger) }
        #expect(error?.code == .aborted)
        #expect(error?.message.contains("deadlock") == true)
        _ = try await olderWaits.value  // the younger one's locks went to the older one
        try store.commit([.set(b, fields: ["by": "older"])], transaction: older)
        #expect(try store.document(b)?.fields["by"] == "older")
    }

    @Test("without a deadlock an older transaction waits for a younger holder and sees its write")
    func olderWaitsWithoutDeadlock() async throws {
        let fixture = try StoreFixture()
        let a = try fixture.name("t/a")
        let store = fixture.store
        try store.commit([.set(a, fields: ["n": 1])])
        let older = try store.beginTransaction()
        let younger = try store.beginTransaction()
        _ = try await store.document(a, transaction: younger)
        let reader = Task { try await store.document(a, transaction: older)?.fields["n"] }
        try await Task.sleep(for: .milliseconds(50))
        fixture.clock.advance(bySeconds: 1)
        try store.commit([.set(a, fields: ["n": 2])], transaction: younger)  // not wounded
        #expect(try await reader.value == 2)
        store.rollback(older)
    }

    @Test("a younger transaction waits for the lock and sees the older one's write")
    func waitForOlder() async throws {
        let fixture = try StoreFixture()
        let a = try fixture.name("t/a")
        try fixture.store.commit([.set(a, fields: ["n": 1])])
        let older = try fixture.store.beginTransaction()
        _ = try await fixture.store.document(a, transaction: older)
        let store = fixture.store
        let reader = Task {
            let younger = try store.beginTransaction()
            let seen = try await store.document(a, transaction: younger)
            store.rollback(younger)
            return seen?.fields["n"]
        }
        try await Task.sleep(for: .milliseconds(50))
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.set(a, fields: ["n": 2])], transaction: older)
        #expect(try await reader.value == 2)
    }

    @Test("a lock wait longer than the timeout aborts the waiter instead of stalling it")
    func lockTimeout() async throws {
        let fixture = try StoreFixture(systemClock: true, lockWaitSeconds: 0.2)
        let a = try fixture.name("t/a")
        let holder = try fixture.store.beginTransaction()
        _ = try await fixture.store.document(a, transaction: holder)
        let waiter = try fixture.store.beginTransaction()
        let error = await #expect(throws: FirestoreError.self) {
            _ = try await fixture.store.document(a, transaction: waiter)
        }
        #expect(error?.code == .aborted)
        #expect(error?.message.contains("waited longer") == true)
        fixture.store.rollback(holder)
        fixture.store.rollback(waiter)
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
        let error = #expect(throws: FirestoreError.self) {
            try fixture.store.commit([.set(a, fields: ["v": 3])], transaction: transaction)
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
        let error = #expect(throws: FirestoreError.self) { try fixture.store.commit([], transaction: idle) }
        #expect(error?.code == .aborted)
        try fixture.store.commit([.set(a, fields: ["v": 1])], transaction: next)
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
