public import DocumentModel
import QueryEngine

extension DocumentStore {
    /// Begins a transaction.
    ///
    /// A read-write transaction reads the newest data, taking shared locks on the documents it
    /// reads and range locks on the queries it runs, until it commits or rolls back (see
    /// `TransactionManager`); a read-only one reads everything at one read time.
    ///
    /// ```swift
    /// let transaction = try store.beginTransaction()
    /// let counter = try await store.document(name, transaction: transaction)
    /// let n = counter?.fields["n"] ?? 0
    /// try await store.commit([.set(name, fields: ["n": ...])], transaction: transaction)
    /// ```
    ///
    /// - Throws: `.failedPrecondition` or `.invalidArgument` for a read-only read time outside
    ///   the retention window.
    public func beginTransaction(_ options: TransactionOptions = .readWrite()) throws -> TransactionID {
        switch options {
        case .readWrite(let previous):
            return transactions.begin(.readWrite, retrying: previous)
        case .readOnly(let readTime):
            return transactions.begin(.readOnly(version: try readVersion(for: readTime)), retrying: nil)
        }
    }

    /// Reads a document in a transaction: the newest version, locked, in a read-write one; at
    /// the transaction's read time in a read-only one.
    public func document(_ name: DocumentName, transaction: TransactionID) async throws -> Document? {
        try await documents([name], transaction: transaction).documents[0]
    }

    /// Reads several documents in a transaction (see `document(_:transaction:)`), locking them
    /// in name order. A read never fails with ABORTED: a conflict shows at the commit.
    public func documents(
        _ names: [DocumentName], transaction: TransactionID
    ) async throws -> (readTime: Timestamp, documents: [Document?]) {
        try await reading {
            switch try transactions.mode(of: transaction) {
            case .readOnly(let version):
                let documents = try DocumentStore.mapLevelDBErrors {
                    let cursor = LazyCursor(database)
                    return try names.map { try readDocument($0, atVersion: version, cursor: cursor) }
                }
                return (Timestamp(microsecondsSinceEpoch: version), documents)
            case .readWrite:
                for name in Set(names).sorted() {
                    try await transactions.lockForRead(name, for: transaction)
                }
                let result = try documents(names)
                for (name, document) in zip(names, result.documents) {
                    transactions.recordRead(name, version: document?.updateTime.microsecondsSinceEpoch, for: transaction)
                }
                return result
            }
        }
    }

    /// Runs a query in a transaction. In a read-write one it reads the newest data and locks
    /// its range (what it found and what it did not, up to the last result when the limit cut
    /// them) and the documents it returns, so that another commit inserting, deleting or moving
    /// a document into or out of the results waits for this transaction; in a read-only one it
    /// reads at the transaction's read time.
    ///
    /// Run as `identity` (the admin by default, which bypasses security rules), the rules'
    /// `list` must allow it (see `runQuery(_:readTime:as:)`).
    public func runQuery(
        _ query: Query, transaction: TransactionID, as identity: RequestIdentity = .admin
    ) async throws -> QueryResult {
        try await reading {
            try authorize(query, as: identity)
            let prepared = try QueryValidator.prepare(query)
            let result: (readTime: Timestamp, documents: [Document])
            switch try transactions.mode(of: transaction) {
            case .readOnly(let version):
                result = try run(prepared, of: query, version: version)
            case .readWrite:
                let range = transactions.lockRange(
                    RangeLock(query: prepared, summary: RangeLock.summary(of: query)), for: transaction)
                result = try run(prepared, of: query, version: nil)
                if let range { transactions.boundRange(range, byResults: result.documents, for: transaction) }
                try await lockForTransaction(result.documents, transaction: transaction)
            }
            return QueryResult(
                readTime: result.readTime,
                documents: result.documents.map { Projection.apply(prepared.projection, to: $0) })
        }
    }

    /// Runs an aggregation in a transaction: in a read-write one over the newest data, locking
    /// the range of its query (see `runQuery(_:transaction:as:)`); in a read-only one at the
    /// transaction's read time.
    ///
    /// Run as `identity` (the admin by default, which bypasses security rules), the rules'
    /// `list` must allow its query.
    public func runAggregation(
        _ query: AggregationQuery, transaction: TransactionID, as identity: RequestIdentity = .admin
    ) async throws -> AggregationResult {
        try await reading {
            try authorize(query.query, as: identity)
            switch try transactions.mode(of: transaction) {
            case .readOnly(let version):
                return try runAggregation(query, version: version)
            case .readWrite:
                let prepared = try QueryValidator.prepare(query.query, aggregated: query.aggregatedFields)
                _ = transactions.lockRange(
                    RangeLock(query: prepared, summary: RangeLock.summary(of: query.query)), for: transaction)
                return try runAggregation(query, version: nil)
            }
        }
    }

    /// The version a transaction reads at: a read-only one's read time, or `nil` (the newest)
    /// for a read-write one.
    public func readTime(of transaction: TransactionID) throws -> Timestamp? {
        switch try transactions.mode(of: transaction) {
        case .readOnly(let version): Timestamp(microsecondsSinceEpoch: version)
        case .readWrite: nil
        }
    }

    /// Records that a read-write transaction read these documents (at the versions they have),
    /// locking them, as a listing inside a transaction does for the documents it returns.
    public func lockForTransaction(_ documents: [Document], transaction: TransactionID) async throws {
        guard case .readWrite = try transactions.mode(of: transaction) else { return }
        for document in documents.sorted(by: { $0.name < $1.name }) {
            try await transactions.lockForRead(document.name, for: transaction)
            transactions.recordRead(
                document.name, version: document.updateTime.microsecondsSinceEpoch, for: transaction)
        }
    }

    /// Commits a transaction's writes atomically and ends it. The commit first waits (suspended)
    /// for other transactions holding locks on what it changes; a deadlock aborts the younger
    /// transaction, and a wait longer than the lock timeout aborts this one. If a document it
    /// read has changed since, the commit fails with ABORTED and nothing is written; the
    /// transaction ends either way.
    ///
    /// Committed as `identity` (the admin by default, which bypasses security rules), each write
    /// must be allowed by the rules (see `commit(_:as:)`).
    ///
    /// - Throws: `.invalidArgument` for an unknown, committed or expired transaction, or writes
    ///   in a read-only one; `.aborted` for an aborted one, with the conflict that aborted it;
    ///   `.permissionDenied` naming the rules evaluated when the rules deny a write.
    @discardableResult
    public func commit(
        _ writes: [Write], transaction: TransactionID, as identity: RequestIdentity = .admin
    ) async throws -> CommitResult {
        defer { transactions.finish(transaction) }
        return try await commitWaitingForLocks(
            writes, transaction: transaction, authorizer: writeAuthorizer(for: identity, writes: writes))
    }

    /// Ends a transaction without writing, releasing its locks. Rolling back an unknown,
    /// committed or aborted transaction succeeds, as Firestore's clients expect.
    public func rollback(_ transaction: TransactionID) {
        transactions.finish(transaction)
    }

    /// Runs a read-write transaction: `body` reads through the transaction and returns the
    /// writes to commit and a result. An ABORTED attempt is retried (keeping its place in line)
    /// up to `maxAttempts` times in all, as Firestore's SDKs do: the first retry at once (the
    /// documents it contended for are then hot and queue their readers), later ones after a
    /// short backoff.
    public func runTransaction<Result: Sendable>(
        maxAttempts: Int = 5,
        _ body: (TransactionID) async throws -> (writes: [Write], result: Result)
    ) async throws -> Result {
        // The attempts run on the store's reader threads (commits hop to the writer), so a
        // transaction holding locks is not delayed behind unrelated work on the cooperative
        // threads between its reads and its commit.
        try await withTaskExecutorPreference(threads.readers) {
            var previous: TransactionID?
            var attempt = 0
            while true {
                attempt += 1
                let transaction = try beginTransaction(.readWrite(retrying: previous))
                do {
                    let (writes, result) = try await body(transaction)
                    try await commit(writes, transaction: transaction)
                    return result
                } catch let error as FirestoreError where error.code == .aborted && attempt < maxAttempts {
                    rollback(transaction)
                    previous = transaction
                    if attempt == 1 {
                        await Task.yield()
                    } else {
                        try await DeadlineTimer.shared.sleep(until: .now + .milliseconds(min(1000, 10 << attempt)))
                    }
                } catch {
                    rollback(transaction)
                    throw error
                }
            }
        }
    }
}
