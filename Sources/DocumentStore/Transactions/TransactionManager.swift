import DocumentModel
import Foundation
import Synchronization

/// Keeps the transactions of a store: their ids and ages, their locks, and their expiry.
///
/// Firestore's concurrency model for server clients, pessimistic and serializable:
///
/// **Shared reads.** A read-write transaction takes a shared lock on every document it reads
/// and a range lock (`RangeLock`) on every query or aggregation it runs, covering what the
/// query did not find as well. Readers never wait for or abort each other, and a read never
/// fails with ABORTED (the clients retry ABORTED only at commit).
///
/// **Exclusive writes.** A commit, in a transaction or not, waits (suspended, never blocking a
/// thread) until no other transaction holds a lock its changes touch: a shared lock on a
/// changed document, or a range lock covering a changed document before or after the change.
/// A wait is bounded by `lockWaitTimeout`, after which the waiter gets ABORTED, as Google's
/// emulator answers "Transaction lock timeout".
///
/// **Deadlocks** (a waiter holding a lock that the transaction it waits for needs, directly
/// or through others) are broken at once by aborting the younger of the two, so every ABORTED
/// comes at a commit, where the clients retry. A retried transaction (`retrying:` the aborted
/// id, as the official clients send `retry_transaction`) keeps its original age, so every
/// transaction eventually becomes the oldest and wins.
///
/// **Contended documents queue.** Read-modify-write contention on one document (both readers
/// then writing it) is such a deadlock; the document is then *hot* for `hotWindowMicroseconds`,
/// and read-write transactions reading it take an update lock instead of a shared one:
/// compatible with shared readers, but one holder at a time, granted to the oldest waiter.
/// The contenders then take turns instead of deadlocking again, so 20 contending increments
/// all commit within the clients' 5-attempt budget. An update-lock wait that would deadlock or
/// time out falls back to a shared lock: the read still succeeds.
///
/// **Safety net.** Whatever the waits decide, correctness rests on checks made under the
/// commit lock: the versions a transaction read are still current at its commit, and a commit
/// that changes a range locked after its own conflict check (a query that registered its range
/// while the commit was being written) aborts that transaction (see `DocumentStore.commit`).
final class TransactionManager: Sendable {
    /// How a transaction reads.
    enum Mode: Sendable {
        case readWrite
        case readOnly(version: Int64)
    }

    /// Another transaction's lock that a commit's changes touch.
    struct Conflict: Sendable {
        let holder: TransactionID
        /// The locked document or range, for messages.
        let what: String
        /// The document, for a document lock.
        let document: DocumentName?
    }

    /// The lock a read was given.
    enum ReadLock: Sendable {
        case shared
        case update
        /// None: the transaction is already aborted (its commit will fail).
        case none
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
        /// Documents it holds a shared lock on.
        var shared: Set<DocumentName> = []
        /// Documents it holds the update lock on.
        var updates: [DocumentName] = []
        var ranges: [RangeLock] = []
        /// Documents it waited to write at its commit (update locks are not granted to others
        /// meanwhile, see `grantUpdateIfFree`).
        var intents: Set<DocumentName> = []
        /// The version each document had when this transaction read it (`nil`: missing).
        var reads: [DocumentName: Int64?] = [:]
        /// The transactions it waits for, and the ticket of that wait.
        var waitingFor: Set<TransactionID> = []
        var waitTicket: UInt64?

        var isActive: Bool { if case .active = status { true } else { false } }
        var isAborted: Bool { if case .aborted = status { true } else { false } }
    }

    private struct DocumentLock {
        var shared: Set<TransactionID> = []
        var update: TransactionID?
        /// Tickets of update-lock waiters, oldest transaction first.
        var queue: [(ticket: UInt64, age: UInt64, requester: TransactionID)] = []

        var isFree: Bool { shared.isEmpty && update == nil && queue.isEmpty }
    }

    private enum WaitKind {
        /// A commit waiting for some holders to finish.
        case commit
        /// A read waiting for a document's update lock.
        case update(DocumentName)
    }

    private struct Wait {
        let requester: TransactionID?
        let kind: WaitKind
        let continuation: CheckedContinuation<ReadLock, any Error>
    }

    private struct State {
        var transactions: [TransactionID: Transaction] = [:]
        var locks: [DocumentName: DocumentLock] = [:]
        var waits: [UInt64: Wait] = [:]
        /// Tickets of commits waiting for each transaction to finish.
        var finishWaiters: [TransactionID: [UInt64]] = [:]
        /// The transactions that waited to write each document at their commit.
        var intents: [DocumentName: Set<TransactionID>] = [:]
        /// When each hot document last saw read-modify-write contention.
        var hot: [DocumentName: Int64] = [:]
        var rangeCount = 0
        var sequence: UInt64 = 0
        /// Ages of recently finished read-write transactions, for retries (bounded).
        var finishedAges: [TransactionID: UInt64] = [:]
        var finishedOrder: [TransactionID] = []
    }

    private let state = Mutex(State())
    /// Whether any lock is held: commits skip the conflict check while none is.
    private let anyLocks = Atomic<Bool>(false)
    /// Whether any range lock is held: commits skip the check after their write while none is.
    private let anyRanges = Atomic<Bool>(false)
    private let salt = UInt64.random(in: .min ... .max)
    private let clock: any WallClock
    let lockWaitTimeout: Duration
    let idleTimeoutMicroseconds: Int64
    let maximumAgeMicroseconds: Int64
    /// Whether queries lock their ranges (switched off only to show that tests catch phantoms).
    let locksRanges: Bool
    private static let rememberedFinished = 4096
    /// How long a document stays hot after read-modify-write contention.
    static let hotWindowMicroseconds: Int64 = 10_000_000
    private static let maximumHotDocuments = 10_000

    init(
        clock: any WallClock, lockWaitTimeout: Duration, idleTimeoutSeconds: Int64, maximumAgeSeconds: Int64,
        locksRanges: Bool = true
    ) {
        self.clock = clock
        self.lockWaitTimeout = lockWaitTimeout
        idleTimeoutMicroseconds = idleTimeoutSeconds * 1_000_000
        maximumAgeMicroseconds = maximumAgeSeconds * 1_000_000
        self.locksRanges = locksRanges
    }

    private var now: Int64 { clock.now().microsecondsSinceEpoch }

    // MARK: - Beginning and reading

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

    /// The mode of a transaction that can still read, touching its idle timer. An aborted one
    /// can (its reads take no locks; its commit fails).
    ///
    /// - Throws: `.invalidArgument` for an unknown, committed or expired id, or one committing.
    func mode(of id: TransactionID) throws -> Mode {
        let time = now
        return try state.withLock { state in
            expire(&state, at: time)
            guard let status = state.transactions[id]?.status else { throw TransactionManager.unknown(id) }
            if case .committing = status { throw FirestoreError.invalidArgument("Transaction \(id) is already committing") }
            state.transactions[id]!.lastUsed = time
            return state.transactions[id]!.mode
        }
    }

    /// Locks `name` for a read of a read-write transaction: shared, or the update lock when
    /// the document is hot (waiting, suspended, for the holder; falling back to a shared lock
    /// where waiting would deadlock or time out). Never throws ABORTED.
    @discardableResult
    func lockForRead(_ name: DocumentName, for id: TransactionID) async throws -> ReadLock {
        let time = now
        let ticket: UInt64? = try state.withLock { state in
            guard let isActive = state.transactions[id]?.isActive else { throw TransactionManager.unknown(id) }
            guard isActive else { return nil }
            if state.transactions[id]!.shared.contains(name) || state.transactions[id]!.updates.contains(name) {
                return nil
            }
            guard isHot(name, at: time, in: &state) else {
                grantShared(name, to: id, in: &state)
                return nil
            }
            return requestUpdate(name, for: id, in: &state)
        }
        guard let ticket else { return .shared }
        return try await suspend(ticket) { state, continuation in
            // The grant (or an abort) may have come between queueing and suspending.
            guard let transaction = state.transactions[id], transaction.waitTicket == ticket else {
                return .success(state.transactions[id]?.updates.contains(name) == true ? .update : .none)
            }
            state.waits[ticket] = Wait(requester: id, kind: .update(name), continuation: continuation)
            return nil
        }
    }

    /// Records the version of a document a read-write transaction read.
    func recordRead(_ name: DocumentName, version: Int64?, for id: TransactionID) {
        state.withLock { state in
            guard state.transactions[id]?.isActive == true, state.transactions[id]!.reads[name] == nil else { return }
            state.transactions[id]!.reads[name] = .some(version)
        }
    }

    /// Registers a range lock for a query of an active read-write transaction, before the
    /// query reads; returns its index among the transaction's ranges, to bound it afterwards.
    func lockRange(_ range: RangeLock, for id: TransactionID) -> Int? {
        guard locksRanges else { return nil }
        return state.withLock { state in
            guard state.transactions[id]?.isActive == true else { return nil }
            state.transactions[id]!.ranges.append(range)
            state.rangeCount += 1
            publishLockPresence(state)
            return state.transactions[id]!.ranges.count - 1
        }
    }

    /// Narrows a registered range to a limited query's results (see `RangeLock.bound`).
    func boundRange(_ index: Int, byResults results: [Document], for id: TransactionID) {
        state.withLock { state in
            guard state.transactions[id]?.isActive == true, index < state.transactions[id]!.ranges.count else { return }
            state.transactions[id]!.ranges[index].bound(byResults: results)
        }
    }

    // MARK: - Committing

    /// What a transaction read, for its commit's checks.
    ///
    /// - Throws: `.invalidArgument` for an unknown or committing one, `.aborted` for an
    ///   aborted one (with the reason).
    func commitInfo(_ id: TransactionID) throws -> (mode: Mode, reads: [DocumentName: Int64?]) {
        let time = now
        return try state.withLock { state in
            expire(&state, at: time)
            try requireActive(id, in: &state, at: time)
            return (state.transactions[id]!.mode, state.transactions[id]!.reads)
        }
    }

    /// Whether any lock is held at all (a commit needs no conflict check otherwise).
    var mayConflict: Bool { anyLocks.load(ordering: .acquiring) }

    /// The other transactions' locks that `changes` touch. With none, a transaction
    /// `requester` becomes committing (it can no longer be aborted by others).
    func claim(_ changes: [DocumentChangeRecord], for requester: TransactionID?) throws -> [Conflict] {
        try state.withLock { state in
            if let requester {
                try requireActiveWithoutTouch(requester, in: state)
            }
            let conflicts = conflicts(of: changes, except: requester, in: state)
            if conflicts.isEmpty, let requester { state.transactions[requester]!.status = .committing }
            return conflicts
        }
    }

    /// Aborts the transactions other than `requester` whose range locks cover `changes`: they
    /// registered their range after the commit's conflict check, and may have read before it.
    func abortRanges(covering changes: [DocumentChangeRecord], except requester: TransactionID?) {
        guard locksRanges, anyRanges.load(ordering: .acquiring) else { return }
        state.withLock { state in
            guard state.rangeCount > 0 else { return }
            for conflict in conflicts(of: changes, except: requester, in: state) where conflict.document == nil {
                abort(
                    conflict.holder,
                    reason: "a commit changed \(conflict.what) while the transaction was reading it", in: &state)
            }
        }
    }

    /// Aborts every transaction holding a lock that `changes` touch: a commit that cannot wait
    /// (`DocumentStore.commit(_:)`, outside any transaction) goes first.
    func abortHolders(of changes: [DocumentChangeRecord]) {
        state.withLock { state in
            for conflict in conflicts(of: changes, except: nil, in: state) {
                abort(conflict.holder, reason: "a write outside any transaction changed \(conflict.what)", in: &state)
            }
        }
    }

    /// Waits, suspended, until one of the conflicts' holders has finished, so that the commit
    /// of `requester` (`nil`: a commit outside any transaction) can try again. A holder that
    /// waits for the requester, directly or through others, is a deadlock: the younger of the
    /// two is aborted (the requester's wait then fails with ABORTED). No wait lasts past
    /// `deadline`: the requester is then aborted.
    func wait(for conflicts: [Conflict], requester: TransactionID?, until deadline: ContinuousClock.Instant) async throws {
        let waiting: (UInt64, Set<TransactionID>)? = try state.withLock { state in
            if let requester { try requireActiveWithoutTouch(requester, in: state) }
            var holders = Set(conflicts.map(\.holder)).filter { state.transactions[$0] != nil }
            if let requester {
                for holder in holders where waits(holder, for: requester, in: state) {
                    let documents = conflicts.filter { $0.holder == holder }.compactMap(\.document)
                    markHot(documents, in: &state)
                    let what = conflicts.first { $0.holder == holder }!.what
                    let holderAge = state.transactions[holder]!.age
                    let requesterAge = state.transactions[requester]!.age
                    if requesterAge > holderAge {
                        let reason = "\(TransactionManager.contention) It deadlocked with the older transaction "
                            + "\(holder) over \(what)"
                        abort(requester, reason: reason, in: &state)
                        throw FirestoreError(.aborted, reason + ". Retry the transaction.")
                    }
                    abort(
                        holder,
                        reason: "\(TransactionManager.contention) It deadlocked with the older transaction "
                            + "\(requester) over \(what)", in: &state)
                    holders.remove(holder)
                }
            }
            guard !holders.isEmpty else { return nil }
            state.sequence += 1
            let ticket = state.sequence
            for holder in holders { state.finishWaiters[holder, default: []].append(ticket) }
            if let requester {
                for name in Set(conflicts.compactMap(\.document)) {
                    state.intents[name, default: []].insert(requester)
                    state.transactions[requester]!.intents.insert(name)
                }
                state.transactions[requester]!.waitingFor = holders
                state.transactions[requester]!.waitTicket = ticket
            }
            return (ticket, holders)
        }
        guard let (ticket, holders) = waiting else { return }
        let description = conflicts.map { "\($0.what) (locked by transaction \($0.holder))" }.joined(separator: ", ")
        _ = try await suspend(ticket, until: deadline, timeoutReason: "for \(description)") { state, continuation in
            // A holder may have finished, or the requester been aborted, before suspending.
            let stillWaiting = holders.allSatisfy { state.finishWaiters[$0]?.contains(ticket) == true }
            guard stillWaiting, requester.map({ state.transactions[$0]?.waitTicket == ticket }) ?? true else {
                if let requester, state.transactions[requester]?.waitTicket == ticket {
                    state.transactions[requester]!.waitTicket = nil
                    state.transactions[requester]!.waitingFor = []
                }
                return .success(.none)
            }
            state.waits[ticket] = Wait(requester: requester, kind: .commit, continuation: continuation)
            return nil
        }
    }

    /// Ends a transaction (committed, failed or rolled back), releasing its locks. Unknown ids
    /// are ignored: rolling back an unknown or aborted transaction succeeds.
    func finish(_ id: TransactionID) {
        state.withLock { state in
            guard let transaction = state.transactions.removeValue(forKey: id) else { return }
            cancelWait(transaction.waitTicket, in: &state) { _ in
                FirestoreError(.aborted, "Transaction \(id) ended while waiting")
            }
            release(transaction, id: id, in: &state)
            remember(id, age: transaction.age, in: &state)
            publishLockPresence(state)
        }
    }

    /// Marks documents hot after a read-modify-write conflict outside the lock waits (a read
    /// version that changed before the commit).
    func markHot(_ documents: [DocumentName]) {
        state.withLock { state in markHot(documents, in: &state) }
    }

    /// The first sentence of Firestore's message for a transaction aborted by contention.
    static let contention = "Aborted due to cross-transaction contention."

    // MARK: - Waiting

    /// Suspends until the wait `ticket` is resumed, or (with a deadline) times out. `register`
    /// runs under the state lock: it stores the continuation in `state.waits[ticket]`, or
    /// returns the outcome at once when the wait is already over.
    private func suspend(
        _ ticket: UInt64, until deadline: ContinuousClock.Instant? = nil, timeoutReason: String = "",
        register: @escaping @Sendable (inout State, CheckedContinuation<ReadLock, any Error>) -> Result<ReadLock, any Error>?
    ) async throws -> ReadLock {
        let limit = deadline ?? ContinuousClock.now + lockWaitTimeout
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ReadLock, any Error>) in
                let outcome = state.withLock { state in register(&state, continuation) }
                if let outcome {
                    continuation.resume(with: outcome)
                    return
                }
                DeadlineTimer.shared.schedule(at: limit) { [weak self] in
                    self?.timeOut(ticket, reason: timeoutReason)
                }
            }
        } onCancel: {
            timeOut(ticket, reason: "the request was cancelled")
        }
    }

    /// Ends a wait that lasted too long: an update-lock wait gets a shared lock instead; a
    /// commit's wait aborts its transaction.
    private func timeOut(_ ticket: UInt64, reason: String) {
        state.withLock { state in
            guard let wait = state.waits.removeValue(forKey: ticket) else { return }
            switch wait.kind {
            case .update(let name):
                state.locks[name]?.queue.removeAll { $0.ticket == ticket }
                if let requester = wait.requester, state.transactions[requester]?.isActive == true {
                    state.transactions[requester]!.waitingFor = []
                    state.transactions[requester]!.waitTicket = nil
                    grantShared(name, to: requester, in: &state)
                    wait.continuation.resume(returning: .shared)
                } else {
                    wait.continuation.resume(returning: .none)
                }
                dropIfFree(name, in: &state)
            case .commit:
                let message = "Transaction lock timeout: the commit waited longer than \(lockWaitTimeout) \(reason)"
                if let requester = wait.requester {
                    state.transactions[requester]?.waitTicket = nil
                    state.transactions[requester]?.waitingFor = []
                    abort(requester, reason: message, in: &state)
                }
                wait.continuation.resume(throwing: FirestoreError(.aborted, message + ". Retry the transaction."))
            }
        }
    }

    // MARK: - State transitions (called with the state locked)

    private static func unknown(_ id: TransactionID) -> FirestoreError {
        FirestoreError.invalidArgument("Transaction \(id) is not valid: it is unknown, committed or expired")
    }

    private func requireActive(_ id: TransactionID, in state: inout State, at time: Int64) throws {
        try requireActiveWithoutTouch(id, in: state)
        state.transactions[id]!.lastUsed = time
    }

    private func requireActiveWithoutTouch(_ id: TransactionID, in state: State) throws {
        guard let transaction = state.transactions[id] else { throw TransactionManager.unknown(id) }
        switch transaction.status {
        case .active: return
        case .committing: throw FirestoreError.invalidArgument("Transaction \(id) is already committing")
        case .aborted(let reason):
            throw FirestoreError(.aborted, "Transaction \(id) was aborted: \(reason). Retry the transaction.")
        }
    }

    private func conflicts(of changes: [DocumentChangeRecord], except requester: TransactionID?, in state: State) -> [Conflict] {
        var conflicts: [Conflict] = []
        for change in changes {
            guard let lock = state.locks[change.name] else { continue }
            let what = "document \(change.name.path)"
            for holder in lock.shared where holder != requester {
                conflicts.append(Conflict(holder: holder, what: what, document: change.name))
            }
            if let holder = lock.update, holder != requester {
                conflicts.append(Conflict(holder: holder, what: what, document: change.name))
            }
        }
        guard state.rangeCount > 0 else { return conflicts }
        for (id, transaction) in state.transactions where id != requester && !transaction.ranges.isEmpty {
            guard !transaction.isAborted else { continue }
            for range in transaction.ranges
            where changes.contains(where: { range.covers($0.before) || range.covers($0.after) }) {
                conflicts.append(Conflict(holder: id, what: range.summary, document: nil))
            }
        }
        return conflicts
    }

    private func grantShared(_ name: DocumentName, to id: TransactionID, in state: inout State) {
        state.locks[name, default: DocumentLock()].shared.insert(id)
        state.transactions[id]!.shared.insert(name)
        publishLockPresence(state)
    }

    /// Grants the update lock on `name` (returns `nil`), or queues the request (returns its
    /// ticket), or grants a shared lock where waiting would deadlock (returns `nil`). The lock
    /// is busy while another transaction holds it or waits at its commit to write the document
    /// (a reader queueing behind a pending writer reads what it writes, instead of deadlocking
    /// with it).
    private func requestUpdate(_ name: DocumentName, for id: TransactionID, in state: inout State) -> UInt64? {
        var blockers = state.intents[name] ?? []
        if let holder = state.locks[name]?.update { blockers.insert(holder) }
        blockers.remove(id)
        if blockers.isEmpty, state.locks[name]?.queue.isEmpty ?? true {
            state.locks[name, default: DocumentLock()].update = id
            state.transactions[id]!.updates.append(name)
            publishLockPresence(state)
            return nil
        }
        if blockers.contains(where: { waits($0, for: id, in: state) }) {
            grantShared(name, to: id, in: &state)
            return nil
        }
        state.sequence += 1
        let ticket = state.sequence
        let age = state.transactions[id]!.age
        var lock = state.locks[name] ?? DocumentLock()
        lock.queue.append((ticket, age, id))
        lock.queue.sort { $0.age < $1.age }
        state.locks[name] = lock
        state.transactions[id]!.waitingFor = blockers
        state.transactions[id]!.waitTicket = ticket
        publishLockPresence(state)
        grantUpdateIfFree(name, in: &state)
        return state.transactions[id]!.waitTicket == ticket ? ticket : nil
    }

    /// Grants a free update lock on `name` to the oldest queued reader, unless another
    /// transaction waits at its commit to write the document.
    private func grantUpdateIfFree(_ name: DocumentName, in state: inout State) {
        guard var lock = state.locks[name], lock.update == nil else { return }
        while let next = lock.queue.first {
            guard state.transactions[next.requester]?.isActive == true else {
                lock.queue.removeFirst()
                continue
            }
            if !(state.intents[name] ?? []).subtracting([next.requester]).isEmpty { break }
            lock.queue.removeFirst()
            lock.update = next.requester
            state.transactions[next.requester]!.updates.append(name)
            state.transactions[next.requester]!.waitingFor = []
            state.transactions[next.requester]!.waitTicket = nil
            state.waits.removeValue(forKey: next.ticket)?.continuation.resume(returning: .update)
            break
        }
        state.locks[name] = lock
        dropIfFree(name, in: &state)
    }

    /// Whether `waiter` waits, directly or through a chain of waiting transactions, for
    /// `holder`: `holder` waiting for `waiter` would then close a cycle.
    private func waits(_ waiter: TransactionID, for holder: TransactionID, in state: State) -> Bool {
        var seen: Set<TransactionID> = [waiter]
        var frontier = [waiter]
        while let current = frontier.popLast() {
            for next in state.transactions[current]?.waitingFor ?? [] {
                if next == holder { return true }
                if seen.insert(next).inserted { frontier.append(next) }
            }
        }
        return false
    }

    private func abort(_ id: TransactionID, reason: String, in state: inout State) {
        guard var transaction = state.transactions[id], !transaction.isAborted else { return }
        if case .committing = transaction.status { return }
        transaction.status = .aborted(reason)
        let held = transaction
        transaction.shared = []
        transaction.updates = []
        transaction.ranges = []
        transaction.intents = []
        transaction.reads = [:]
        transaction.waitingFor = []
        let ticket = transaction.waitTicket
        transaction.waitTicket = nil
        state.transactions[id] = transaction
        cancelWait(ticket, in: &state) { _ in
            FirestoreError(.aborted, "Transaction \(id) was aborted: \(reason). Retry the transaction.")
        }
        release(held, id: id, in: &state)
        publishLockPresence(state)
    }

    /// Ends the wait `ticket` of a transaction that is aborted or finished: an update-lock
    /// read goes on without a lock; a commit's wait fails with `error`.
    private func cancelWait(
        _ ticket: UInt64?, in state: inout State, error: (UInt64) -> FirestoreError
    ) {
        guard let ticket else { return }
        for (name, lock) in state.locks where lock.queue.contains(where: { $0.ticket == ticket }) {
            state.locks[name]!.queue.removeAll { $0.ticket == ticket }
            dropIfFree(name, in: &state)
        }
        guard let wait = state.waits.removeValue(forKey: ticket) else { return }
        switch wait.kind {
        case .update: wait.continuation.resume(returning: .none)
        case .commit: wait.continuation.resume(throwing: error(ticket))
        }
    }

    /// Releases every lock of `transaction`: update locks go to their oldest waiter, and the
    /// commits waiting for it try again.
    private func release(_ transaction: Transaction, id: TransactionID, in state: inout State) {
        for name in transaction.shared {
            guard var lock = state.locks.removeValue(forKey: name) else { continue }
            lock.shared.remove(id)
            if !lock.isFree { state.locks[name] = lock }
        }
        for name in transaction.intents {
            state.intents[name]?.remove(id)
            if state.intents[name]?.isEmpty == true { state.intents[name] = nil }
        }
        for name in transaction.updates where state.locks[name]?.update == id {
            state.locks[name]!.update = nil
        }
        if !transaction.updates.isEmpty || !transaction.intents.isEmpty {
            for name in Set(transaction.updates).union(transaction.intents) { grantUpdateIfFree(name, in: &state) }
        }
        state.rangeCount -= transaction.ranges.count
        for ticket in state.finishWaiters.removeValue(forKey: id) ?? [] {
            guard let wait = state.waits.removeValue(forKey: ticket) else { continue }
            if let requester = wait.requester {
                state.transactions[requester]?.waitingFor = []
                state.transactions[requester]?.waitTicket = nil
            }
            wait.continuation.resume(returning: .none)
        }
    }

    private func dropIfFree(_ name: DocumentName, in state: inout State) {
        if state.locks[name]?.isFree == true { state.locks[name] = nil }
    }

    private func publishLockPresence(_ state: State) {
        anyLocks.store(!state.locks.isEmpty || state.rangeCount > 0, ordering: .releasing)
        anyRanges.store(state.rangeCount > 0, ordering: .releasing)
    }

    private func isHot(_ name: DocumentName, at time: Int64, in state: inout State) -> Bool {
        guard !state.hot.isEmpty, let since = state.hot[name] else { return false }
        if time - since < TransactionManager.hotWindowMicroseconds { return true }
        state.hot[name] = nil
        return false
    }

    private func markHot(_ documents: [DocumentName], in state: inout State) {
        guard !documents.isEmpty else { return }
        let time = now
        if state.hot.count > TransactionManager.maximumHotDocuments {
            state.hot = state.hot.filter { time - $0.value < TransactionManager.hotWindowMicroseconds }
        }
        for name in documents { state.hot[name] = time }
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
            guard transaction.isActive, transaction.waitTicket == nil else { continue }
            if time - transaction.lastUsed > idleTimeoutMicroseconds {
                abort(id, reason: "it was idle for more than \(idleTimeoutMicroseconds / 1_000_000) seconds", in: &state)
            } else if time - transaction.began > maximumAgeMicroseconds {
                abort(id, reason: "it ran for more than \(maximumAgeMicroseconds / 1_000_000) seconds", in: &state)
            }
        }
    }
}
