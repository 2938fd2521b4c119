import DocumentModel

extension DocumentStore {
    /// Begins a transaction.
    ///
    /// A read-write transaction locks each document it reads until it commits or rolls back (see
    /// `TransactionManager`); a read-only one reads everything at one read time.
    ///
    /// ```swift
    /// let transaction = try store.beginTransaction()
    /// let counter = try await store.document(name, transaction: transaction)
    /// let n = counter?.fields["n"] ?? 0
    /// try store.commit([.set(name, fields: ["n": ...])], transaction: transaction)
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

    /// Reads a document in a transaction: locked, at the newest version, in a read-write one;
    /// at the transaction's read time in a read-only one.
    public func document(_ name: DocumentName, transaction: TransactionID) async throws -> Document? {
        try await documents([name], transaction: transaction).documents[0]
    }

    /// Reads several documents in a transaction (see `document(_:transaction:)`), locking them
    /// in name order so that transactions reading the same set cannot deadlock.
    public func documents(
        _ names: [DocumentName], transaction: TransactionID
    ) async throws -> (readTime: Timestamp, documents: [Document?]) {
        switch try transactions.mode(of: transaction) {
        case .readOnly(let version):
            let documents = try DocumentStore.mapLevelDBErrors {
                let cursor = LazyCursor(database)
                return try names.map { try readDocument($0, atVersion: version, cursor: cursor) }
            }
            return (Timestamp(microsecondsSinceEpoch: version), documents)
        case .readWrite:
            for name in Set(names).sorted() {
                try await transactions.lock(name, for: transaction)
            }
            let result = try documents(names)
            for (name, document) in zip(names, result.documents) {
                transactions.recordRead(name, version: document?.updateTime.microsecondsSinceEpoch, for: transaction)
            }
            return result
        }
    }

    /// Records that a read-write transaction read these documents (at the versions they have),
    /// locking them, as a query inside a transaction does for the documents it returns.
    public func lockForTransaction(_ documents: [Document], transaction: TransactionID) async throws {
        guard case .readWrite = try transactions.mode(of: transaction) else { return }
        for document in documents.sorted(by: { $0.name < $1.name }) {
            try await transactions.lock(document.name, for: transaction)
            transactions.recordRead(
                document.name, version: document.updateTime.microsecondsSinceEpoch, for: transaction)
        }
    }

    /// Commits a transaction's writes atomically and ends it. If a document it read has changed
    /// since (a write outside any transaction), the commit fails with ABORTED and nothing is
    /// written; the transaction ends either way.
    ///
    /// - Throws: `.invalidArgument` for an unknown, committed or expired transaction, or writes
    ///   in a read-only one; `.aborted` for an aborted one.
    @discardableResult
    public func commit(_ writes: [Write], transaction: TransactionID) throws -> CommitResult {
        try commit(writes, transaction: transaction, authorizer: nil)
    }

    /// Commits a transaction, checking its writes with `authorizer` under the commit lock.
    func commit(_ writes: [Write], transaction: TransactionID, authorizer: CommitAuthorizer?) throws -> CommitResult {
        let (mode, reads) = try transactions.beginCommit(transaction)
        defer { transactions.finish(transaction) }
        if case .readOnly = mode, !writes.isEmpty {
            throw FirestoreError.invalidArgument("Cannot modify entities in a read-only transaction.")
        }
        return try commit(writes, verifyingReads: reads, authorizer: authorizer)
    }

    /// Ends a transaction without writing, releasing its locks. Rolling back an unknown,
    /// committed or aborted transaction succeeds, as Firestore's clients expect.
    public func rollback(_ transaction: TransactionID) {
        transactions.finish(transaction)
    }

    /// Runs a read-write transaction: `body` reads through the transaction and returns the
    /// writes to commit and a result. An ABORTED attempt is retried (keeping its place in line)
    /// up to `maxAttempts` times in all, with a short backoff, as Firestore's SDKs do.
    public func runTransaction<Result: Sendable>(
        maxAttempts: Int = 5,
        _ body: (TransactionID) async throws -> (writes: [Write], result: Result)
    ) async throws -> Result {
        var previous: TransactionID?
        var attempt = 0
        while true {
            attempt += 1
            let transaction = try beginTransaction(.readWrite(retrying: previous))
            do {
                let (writes, result) = try await body(transaction)
                try commit(writes, transaction: transaction)
                return result
            } catch let error as FirestoreError where error.code == .aborted && attempt < maxAttempts {
                rollback(transaction)
                previous = transaction
                try await Task.sleep(for: .milliseconds(min(1000, 10 << attempt)))
            } catch {
                rollback(transaction)
                throw error
            }
        }
    }
}
