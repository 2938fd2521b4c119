import DocumentModel
import SecurityRules

extension DocumentStore {
    /// Sets (or, with `nil`, removes) the security rules of a project. Without rules every
    /// request is allowed, as in Google's emulator started without a rules file.
    public func setRules(_ ruleset: Ruleset?, project: String) {
        rulesets.withLock { $0[project] = ruleset }
    }

    /// The security rules of a project, if any were set.
    public func rules(project: String) -> Ruleset? {
        rulesets.withLock { $0[project] }
    }

    /// Reads a document as `identity`: the rules' `get` must allow it (a missing document is
    /// judged with `resource == null`).
    ///
    /// - Throws: `.permissionDenied` naming the rules evaluated, as Google's emulator does.
    public func document(_ name: DocumentName, readTime: Timestamp? = nil, as identity: RequestIdentity) throws -> Document? {
        let document = try self.document(name, readTime: readTime)
        try authorize(
            name.databaseID, path: name.path, method: .get, identity: identity, resource: document, newResource: nil)
        return document
    }

    /// Judges the rules' `get` for documents already read together (at one read time, or in a
    /// transaction): each one, or its absence, is `resource`. Any denial fails the whole read,
    /// as in Google's emulator. No read time is involved, so a snapshot older than the retention
    /// window (a store idle for long, or one never written) is judged like any other.
    public func authorizeReads(_ names: [DocumentName], documents: [Document?], as identity: RequestIdentity) throws {
        for (name, document) in zip(names, documents) {
            try authorize(
                name.databaseID, path: name.path, method: .get, identity: identity, resource: document, newResource: nil)
        }
    }

    /// Runs a query as `identity`: the rules' `list` must allow every document the query could
    /// return, judged from its constraints (rules are not filters).
    public func runQuery(_ query: Query, readTime: Timestamp? = nil, as identity: RequestIdentity) throws -> QueryResult {
        try authorize(query, as: identity)
        return try runQuery(query, readTime: readTime)
    }

    /// Runs a query in a transaction as `identity` (see `runQuery(_:transaction:)`); the rules'
    /// `list` must allow it.
    public func runQuery(_ query: Query, transaction: TransactionID, as identity: RequestIdentity) async throws
        -> QueryResult
    {
        try await reading {
            try authorize(query, as: identity)
            return try await runQuery(query, transaction: transaction)
        }
    }

    /// Runs an aggregation in a transaction as `identity` (see `runAggregation(_:transaction:)`);
    /// the rules' `list` must allow its query.
    public func runAggregation(
        _ aggregation: AggregationQuery, transaction: TransactionID, as identity: RequestIdentity
    ) async throws -> AggregationResult {
        try await reading {
            try authorize(aggregation.query, as: identity)
            return try await runAggregation(aggregation, transaction: transaction)
        }
    }

    /// Runs an aggregation as `identity`, which needs the `list` permission of its query.
    public func runAggregation(
        _ aggregation: AggregationQuery, readTime: Timestamp? = nil, as identity: RequestIdentity
    ) throws -> AggregationResult {
        try authorize(aggregation.query, as: identity)
        return try runAggregation(aggregation, readTime: readTime)
    }

    /// Listens as `identity`: listening is a read, allowed by `get` for a document and `list`
    /// for a query.
    public func listen(to target: ListenTarget, resumeToken: Int64? = nil, as identity: RequestIdentity) throws
        -> ListenerStream
    {
        switch target {
        case .document(let name):
            _ = try document(name, as: identity)
        case .query(let query):
            try authorize(query, as: identity)
        }
        return try listen(to: target, resumeToken: resumeToken)
    }

    /// Commits writes as `identity`: each write must be allowed by `create`, `update` or
    /// `delete`, judged against the commit's post-commit view (`getAfter`), before anything is
    /// written.
    /// A transaction holding a lock on what they change is aborted (see `commit(_:)`).
    @discardableResult
    public func commit(_ writes: [Write], as identity: RequestIdentity) throws -> CommitResult {
        try commitAbortingHolders(writes, authorizer: writeAuthorizer(for: identity, writes: writes))
    }

    /// Commits writes as `identity` (see `commit(_:as:)`) once no transaction holds a lock on
    /// what they change (see `commitWaitingForLocks(_:)`).
    @discardableResult
    public func commitWaitingForLocks(_ writes: [Write], as identity: RequestIdentity) async throws -> CommitResult {
        try await commitWaitingForLocks(
            writes, transaction: nil, authorizer: writeAuthorizer(for: identity, writes: writes))
    }

    /// Commits a transaction's writes as `identity` (see `commit(_:as:)` and
    /// `commit(_:transaction:)`).
    @discardableResult
    public func commit(_ writes: [Write], transaction: TransactionID, as identity: RequestIdentity) async throws
        -> CommitResult
    {
        try await commit(writes, transaction: transaction, authorizer: writeAuthorizer(for: identity, writes: writes))
    }

    /// Checks a query's `list` permission as `identity`, judged from its constraints alone (rules
    /// are not filters), without running it.
    ///
    /// - Throws: `.permissionDenied` naming the rules evaluated.
    public func authorize(_ query: Query, as identity: RequestIdentity) throws {
        guard identity != .admin, let ruleset = rules(project: query.database.project) else { return }
        let structured = query.structured
        let path = query.parent.segments + [structured.from.collectionID]
        let request = RulesRequest(
            database: query.database, path: try ResourcePath(segments: path.filter { !$0.isEmpty }), method: .list,
            auth: identity.auth, time: configuration.clock.now(), query: RulesQuery(structured),
            accessScope: .multipleDocuments)
        try enforce(
            ruleset.evaluate(request, lookup: StoreRulesLookup(store: self, pending: [:])), for: request, by: ruleset,
            recorder: RulesDecisionRecorder.current)
    }

    private func authorize(
        _ database: DatabaseID, path: ResourcePath, method: RulesMethod, identity: RequestIdentity,
        resource: Document?, newResource: Document?
    ) throws {
        guard identity != .admin, let ruleset = rules(project: database.project) else { return }
        let request = RulesRequest(
            database: database, path: path, method: method, auth: identity.auth, time: configuration.clock.now(),
            resource: resource, newResource: newResource)
        try enforce(
            ruleset.evaluate(request, lookup: StoreRulesLookup(store: self, pending: [:])), for: request, by: ruleset,
            recorder: RulesDecisionRecorder.current)
    }

    /// The check a commit runs under its lock, once every write is applied: each write's method
    /// follows its precondition, else whether the document existed before it. The request's
    /// decision recorder, if any, is taken now, so the check records to it wherever it runs.
    private func writeAuthorizer(for identity: RequestIdentity, writes: [Write]) -> CommitAuthorizer? {
        guard identity != .admin, let first = writes.first,
            let ruleset = rules(project: first.name.databaseID.project)
        else { return nil }
        let recorder = RulesDecisionRecorder.current
        return { commitTime, existedBefore, before, after in
            let lookup = StoreRulesLookup(store: self, pending: after)
            let tracker = RulesAccessTracker()
            for (index, write) in writes.enumerated() {
                let method: RulesMethod
                switch (write.operation, write.precondition) {
                case (.delete, _): method = .delete
                case (_, .exists(false)): method = .create
                case (_, .exists(true)): method = .update
                default: method = existedBefore[index] ? .update : .create
                }
                let request = RulesRequest(
                    database: write.name.databaseID, path: write.name.path, method: method, auth: identity.auth,
                    time: commitTime, resource: before[write.name] ?? nil,
                    newResource: method == .delete ? nil : (after[write.name] ?? nil),
                    accessScope: writes.count > 1 ? .multipleDocuments : .singleDocument)
                try self.enforce(
                    ruleset.evaluate(request, lookup: lookup, accessTracker: tracker), for: request, by: ruleset,
                    recorder: recorder)
            }
        }
    }

    /// Reports `decision` on `request` to `recorder`, if any, then fails unless it allows.
    private func enforce(
        _ decision: RulesDecision, for request: RulesRequest, by ruleset: Ruleset, recorder: RulesDecisionRecorder?
    ) throws {
        recorder?.record(decision, for: request, by: ruleset)
        guard decision.allowed else {
            throw FirestoreError(.permissionDenied, decision.message)
        }
    }
}

/// Checks a commit's writes against security rules under the commit lock: the commit time,
/// whether each write's document existed just before it, and each touched document's state
/// before and after the commit (`nil` inside: missing).
typealias CommitAuthorizer = @Sendable (
    _ commitTime: Timestamp, _ existedBefore: [Bool], _ before: [DocumentName: Document?],
    _ after: [DocumentName: Document?]
) throws -> Void
