import DocumentModel

extension Firestore {
    /// Runs `updateBlock` in a read-write transaction and commits its writes atomically,
    /// returning what the block returns.
    ///
    /// An attempt that fails with `.aborted` (a document it read changed, or a lock wait ran
    /// out) is rolled back and run again, up to `maxAttempts` attempts in all, after an
    /// exponential backoff with jitter as the Firebase SDKs wait (none before the first retry,
    /// then about 1 s, growing 1.5× per attempt). Any other error, thrown by the block or by
    /// the database, rolls back and is rethrown at once.
    ///
    /// `updateBlock` runs in the caller's isolation (`isolation` defaults to it): in a
    /// `@MainActor` function it runs on the main actor, in an actor's method on that actor, so
    /// it may capture what the caller can use and return a value that is not `Sendable`. It may
    /// run more than once, so it should change nothing outside the transaction.
    ///
    /// ```swift
    /// let newCount = try await db.runTransaction { transaction in
    ///     let snapshot = try await transaction.getDocument(counter)
    ///     let count = (snapshot.get("count") as? Int ?? 0) + 1
    ///     transaction.updateData(["count": count], forDocument: counter)
    ///     return count
    /// }
    /// ```
    @discardableResult
    public func runTransaction<Result>(
        maxAttempts: Int = 5, isolation: isolated (any Actor)? = #isolation,
        _ updateBlock: (Transaction) async throws -> Result
    ) async throws -> Result {
        guard maxAttempts >= 1 else {
            throw FirestoreError.invalidArgument("maxAttempts must be at least 1, got \(maxAttempts)")
        }
        var backoff = TransactionBackoff()
        var previous: TransactionID?
        var attempt = 0
        while true {
            attempt += 1
            try sync.requireServer()
            let id = try await backend.beginTransaction(retrying: previous, as: identity)
            let transaction = Transaction(firestore: self, id: id)
            do {
                let result = try await updateBlock(transaction)
                try await commit(try transaction.pendingWrites(), transaction: id)
                return result
            } catch let error as FirestoreError where error.code == .aborted && attempt < maxAttempts {
                await backend.rollback(id, as: identity)
                previous = id
                try await Task.sleep(for: backoff.next())
            } catch {
                await backend.rollback(id, as: identity)
                throw error
            }
        }
    }
}

/// The delays between transaction attempts: none before the first retry, then a base of 1 s
/// growing 1.5× per retry up to 60 s, each with ±50% jitter, as the Firebase SDKs'
/// `ExponentialBackoff` waits.
struct TransactionBackoff {
    private var base: Double = 0
    static let initialSeconds = 1.0
    static let factor = 1.5
    static let maximumSeconds = 60.0

    mutating func next() -> Duration {
        let delay = base * Double.random(in: 0.5...1.5)
        base = base == 0 ? Self.initialSeconds : min(base * Self.factor, Self.maximumSeconds)
        return .milliseconds(Int64(delay * 1000))
    }
}
