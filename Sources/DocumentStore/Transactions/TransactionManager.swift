import DocumentModel
import Foundation
import Synchronization

/// Keeps the transactions of a store: their ids and ages, the document locks of read-write
/// transactions, and their expiry.
///
/// **Locking.** A read-write transaction locks every document it reads, exclusively, until it
/// commits or rolls back. Contending read-modify-write transactions therefore queue on the
/// document instead of all reading the same value and all but one failing at commit, which is
/// how Google's emulator starves them. The queue is fair: the lock goes to the oldest waiter.
///
/// **Deadlocks** are resolved by wound-wait on age, and only deadlocks: a transaction waits for
/// a lock whoever holds it, unless the holder is itself waiting, directly or through others,
/// for a lock the requester holds. Then the younger of the two is aborted: the holder if it is
/// younger (its next call, or its pending wait, fails with ABORTED), else the requester. So
/// transactions contending on one document only queue, and none is aborted. A retried
/// transaction (`retrying:` the aborted id, as the official clients send `retry_transaction`)
/// keeps its original age, so every transaction eventually becomes the oldest and wins:
/// progress within the clients' 5-attempt budget.
///
/// **Bounds.** No lock wait exceeds `lockWaitTimeout` (the waiter is aborted instead), and a
/// transaction idle longer than `idleTimeout` or older than `maximumAge` expires, releasing its
/// locks. Waiting suspends the caller (async); it never blocks a thread.
final class TransactionManager: Sendable {
    /// How a transaction reads.
    enum Mode: Sendable {
        case readWrite
        case readOnly(version: Int64)
    }

    private enum Status {
        case active
        case committing
        case aborted(String)
    }

    private struct Transaction {
        let mode: Mode
        let age: UInt64
        let began: Int64
        var lastUsed: Int64
        var status: Status = .active
        var locks: [DocumentName] = []
        /// The version each document had when this transaction read it (`nil`: missing).
        var reads: [DocumentName: Int64?] = [:]
        var waitingTicket: UInt64?
        /// The document whose lock the transaction waits for.
        var waitingFor: DocumentName?
    }

    private struct Waiter {
        let transaction: TransactionID
        let age: UInt64
        let ticket: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Lock {
        var holder: TransactionID
        var waiters: [Waiter] = []
    }

    private struct State {
        var transactions: [TransactionID: Transaction] = [:]
        var locks: [DocumentName: Lock] = [:]
        var sequence: UInt64 = 0
        /// Ages of recently finished read-write transactions, for retries (bounded).
        var finishedAges: [TransactionID: UInt64] = [:]
        var finishedOrder: [TransactionID] = []
    }

    private let state = Mutex(State())
    private let salt = UInt64.random(in: .min ... .max)
    private let clock: any WallClock
    let lockWaitTimeout: Duration
    let idleTimeoutMicroseconds: Int64
    let maximumAgeMicroseconds: Int64
    private static let rememberedFinished = 4096

    init(clock: any WallClock, lockWaitTimeout: Duration, idleTimeoutSeconds: Int64, maximumAgeSeconds: Int64) {
        self.clock = clock
        self.lockWaitTimeout = lockWaitTimeout
        idleTimeoutMicroseconds = idleTimeoutSeconds * 1_000_000
        maximumAgeMicroseconds = maximumAgeSeconds * 1_000_000
    }

    private var now: Int64 { clock.now().microsecondsSinceEpoch }

    /// Begins a transaction and returns its id.
    func begin(_ mode: Mode, retrying previous: TransactionID?) -> TransactionID {
        let time = now
        return state.withLock { state in
            expire(&state, at: time)
            state.sequence += 1
            let id = TransactionID(sequence: state.sequence, salt: salt)
            let age = previous.flatMap { state.finishedAges[$0] ?? state.transactions[$0]?.age } ?? state.sequence
            state.transactions[id] = Transaction(mode: mode, age: age, began: time, lastUsed: time)
            return id
        }
    }

    /// The mode of an active transaction, touching its idle timer.
    ///
    /// - Throws: `.invalidArgument` for an unknown id, `.aborted` for an aborted or expired one.
    func mode(of id: TransactionID) throws -> Mode {
        let time = now
        return try state.withLock { state in
            expire(&state, at: time)
            try requireActive(id, in: &state, at: time)
            return state.transactions[id]!.mode
        }
    }

    /// Locks `name` for a read-write transaction, waiting (suspended) while an older
    /// transaction holds it. A wait longer than `lockWaitTimeout` aborts the waiter.
    func lock(_ name: DocumentName, for id: TransactionID) async throws {
        let time = now
        let mustWait = try state.withLock { state in
            expire(&state, at: time)
            try requireActive(id, in: &state, at: time)
            return try grantOrQueue(name, to: id, in: &state) != nil
        }
        guard mustWait else { return }
        let timeout = lockWaitTimeout
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    do {
                        guard let ticket = try grantOrQueue(name, to: id, in: &state) else { return .success(()) }
                        let age = state.transactions[id]!.age
                        state.transactions[id]!.waitingTicket = ticket
                        state.transactions[id]!.waitingFor = name
                        state.locks[name]!.waiters.append(
                            Waiter(transaction: id, age: age, ticket: ticket, continuation: continuation))
                        state.locks[name]!.waiters.sort { $0.age < $1.age }
                        Task { [weak self] in
                            try? await Task.sleep(for: timeout)
                            self?.timeOut(id, ticket: ticket)
                        }
                        return nil
                    } catch {
                        return .failure(error)
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            abort(id, reason: "the request waiting for a lock was cancelled")
        }
    }

    /// Aborts a transaction still waiting with `ticket`.
    private func timeOut(_ id: TransactionID, ticket: UInt64) {
        state.withLock { state in
            guard state.transactions[id]?.waitingTicket == ticket else { return }
            abort(id, reason: "it waited longer than \(lockWaitTimeout) for a document locked by another transaction",
                  in: &state)
        }
    }

    /// Records the version of a document a read-write transaction read.
    func recordRead(_ name: DocumentName, version: Int64?, for id: TransactionID) {
        state.withLock { state in
            guard state.transactions[id] != nil, state.transactions[id]!.reads[name] == nil else { return }
            state.transactions[id]!.reads[name] = .some(version)
        }
    }

    /// Marks a transaction as committing (it can no longer be wounded) and returns what it read.
    func beginCommit(_ id: TransactionID) throws -> (mode: Mode, reads: [DocumentName: Int64?]) {
        let time = now
        return try state.withLock { state in
            expire(&state, at: time)
            try requireActive(id, in: &state, at: time)
            state.transactions[id]!.status = .committing
            return (state.transactions[id]!.mode, state.transactions[id]!.reads)
        }
    }

    /// Ends a transaction (committed, failed or rolled back), releasing its locks. Unknown ids
    /// are ignored: rolling back an unknown or aborted transaction succeeds.
    func finish(_ id: TransactionID) {
        state.withLock { state in
            guard let transaction = state.transactions.removeValue(forKey: id) else { return }
            release(transaction, id: id, in: &state)
            remember(id, age: transaction.age, in: &state)
        }
    }

    /// Aborts an active transaction: its locks go to waiters; its later calls fail with ABORTED.
    func abort(_ id: TransactionID, reason: String) {
        state.withLock { state in abort(id, reason: reason, in: &state) }
    }

    /// The number of transactions known (active, or aborted and not yet finished).
    var count: Int { state.withLock { $0.transactions.count } }

    // MARK: - State transitions (called with the state locked)

    private func requireActive(_ id: TransactionID, in state: inout State, at time: Int64) throws {
        guard let transaction = state.transactions[id] else {
            throw FirestoreError.invalidArgument("Transaction \(id) is not valid: it is unknown, committed or expired")
        }
        switch transaction.status {
        case .active:
            state.transactions[id]!.lastUsed = time
        case .committing:
            throw FirestoreError.invalidArgument("Transaction \(id) is already committing")
        case .aborted(let reason):
            throw FirestoreError(.aborted, "Transaction \(id) was aborted: \(reason). Retry the transaction.")
        }
    }

    /// Grants the lock (returns `nil`) or says the caller must wait (returns a ticket).
    private func grantOrQueue(_ name: DocumentName, to id: TransactionID, in state: inout State) throws -> UInt64? {
        try requireActiveWithoutTouch(id, in: state)
        guard let lock = state.locks[name] else {
            state.locks[name] = Lock(holder: id)
            state.transactions[id]!.locks.append(name)
            return nil
        }
        if lock.holder == id { return nil }
        let requester = state.transactions[id]!
        if let holder = state.transactions[lock.holder], case .active = holder.status,
            waits(lock.holder, for: id, in: state)
        {
            guard requester.age < holder.age else {
                let reason = "waiting for a document locked by an older transaction would deadlock"
                abort(id, reason: reason, in: &state)
                throw FirestoreError(.aborted, "Transaction \(id) was aborted: \(reason). Retry the transaction.")
            }
            abort(lock.holder, reason: "an older transaction needed a document it had locked", in: &state)
            if state.locks[name] == nil {
                state.locks[name] = Lock(holder: id)
                state.transactions[id]!.locks.append(name)
                return nil
            }
        }
        state.sequence += 1
        return state.sequence
    }

    /// Whether `waiter` waits, directly or through a chain of waiting holders, for a lock that
    /// `holder` holds: `holder` waiting for `waiter` would then close a cycle.
    private func waits(_ waiter: TransactionID, for holder: TransactionID, in state: State) -> Bool {
        var current = waiter
        for _ in 0..<state.transactions.count {
            guard let name = state.transactions[current]?.waitingFor, let next = state.locks[name]?.holder else {
                return false
            }
            if next == holder { return true }
            current = next
        }
        return false
    }

    private func requireActiveWithoutTouch(_ id: TransactionID, in state: State) throws {
        guard let transaction = state.transactions[id] else {
            throw FirestoreError.invalidArgument("Transaction \(id) is not valid: it is unknown, committed or expired")
        }
        if case .aborted(let reason) = transaction.status {
            throw FirestoreError(.aborted, "Transaction \(id) was aborted: \(reason). Retry the transaction.")
        }
    }

    private func abort(_ id: TransactionID, reason: String, in state: inout State) {
        guard let transaction = state.transactions[id], case .active = transaction.status else { return }
        state.transactions[id]!.status = .aborted(reason)
        state.transactions[id]!.waitingFor = nil
        release(transaction, id: id, in: &state)
        state.transactions[id]!.locks = []
        if let ticket = transaction.waitingTicket {
            for name in Array(state.locks.keys) {
                guard let index = state.locks[name]?.waiters.firstIndex(where: { $0.ticket == ticket }) else { continue }
                let waiter = state.locks[name]!.waiters.remove(at: index)
                waiter.continuation.resume(
                    throwing: FirestoreError(.aborted, "Transaction \(id) was aborted: \(reason). Retry the transaction."))
                break
            }
        }
    }

    /// Hands each lock of `transaction` to its oldest waiter, or frees it.
    private func release(_ transaction: Transaction, id: TransactionID, in state: inout State) {
        for name in transaction.locks {
            guard var lock = state.locks[name], lock.holder == id else { continue }
            if lock.waiters.isEmpty {
                state.locks[name] = nil
                continue
            }
            let next = lock.waiters.removeFirst()
            lock.holder = next.transaction
            state.locks[name] = lock
            state.transactions[next.transaction]?.locks.append(name)
            state.transactions[next.transaction]?.waitingTicket = nil
            state.transactions[next.transaction]?.waitingFor = nil
            next.continuation.resume()
        }
    }

    private func remember(_ id: TransactionID, age: UInt64, in state: inout State) {
        state.finishedAges[id] = age
        state.finishedOrder.append(id)
        if state.finishedOrder.count > TransactionManager.rememberedFinished {
            let dropped = state.finishedOrder.prefix(state.finishedOrder.count / 2)
            for old in dropped { state.finishedAges[old] = nil }
            state.finishedOrder.removeFirst(dropped.count)
        }
    }

    /// Aborts transactions idle or alive for too long.
    private func expire(_ state: inout State, at time: Int64) {
        for (id, transaction) in state.transactions {
            guard case .active = transaction.status else { continue }
            if time - transaction.lastUsed > idleTimeoutMicroseconds {
                abort(id, reason: "it was idle for more than \(idleTimeoutMicroseconds / 1_000_000) seconds", in: &state)
            } else if time - transaction.began > maximumAgeMicroseconds {
                abort(id, reason: "it ran for more than \(maximumAgeMicroseconds / 1_000_000) seconds", in: &state)
            }
        }
    }
}
