package import DocumentModel

/// What a `Firestore` instance needs from a database: the embedded store or a remote emulator.
/// Every call carries the identity security rules judge it by.
package protocol Backend: Sendable {
    /// Reads documents (`nil` for a missing one), in a transaction if one is given.
    func lookup(_ names: [DocumentName], transaction: TransactionID?, as identity: Identity) async throws
        -> (readTime: Timestamp, documents: [Document?])

    /// Runs a query, in a transaction if one is given.
    func runQuery(_ query: DocumentModel.Query, transaction: TransactionID?, as identity: Identity) async throws
        -> (readTime: Timestamp, documents: [Document])

    /// Runs aggregations; the result's fields are named by the aggregations' aliases.
    func runAggregation(_ query: AggregationQuery, as identity: Identity) async throws -> MapValue

    /// Commits writes atomically (in a transaction if one is given, which then ends), and
    /// returns what the server reported.
    func commit(_ writes: [Write], transaction: TransactionID?, as identity: Identity) async throws -> CommitReport

    /// Begins a read-write transaction; `retrying` names the aborted attempt it retries.
    func beginTransaction(retrying: TransactionID?, as identity: Identity) async throws -> TransactionID

    /// Ends a transaction without writing.
    func rollback(_ transaction: TransactionID, as identity: Identity) async

    /// Follows a target: a `WatchEvent.snapshot` each time the target is consistent on the
    /// server, `.disconnected` when the connection to it breaks (the backend then listens again
    /// by itself), until the consumer stops or the target fails. The stream keeps only the
    /// newest events for a slow consumer (`WatchEvent.buffering`). With `resume`, the first
    /// stream asks only for what changed since its token (a backend without resume tokens
    /// ignores it).
    func watch(_ target: ListenTarget, resuming resume: WatchResume?, as identity: Identity) -> AsyncStream<WatchEvent>

    /// Releases what the backend holds (connections, an owned store).
    func shutdown() async
}

/// What the server reported for a commit.
package struct CommitReport: Sendable {
    /// The time of the commit.
    package var commitTime: Timestamp
    /// Per write, in order, the values its transforms set (a server timestamp's time, an
    /// increment's sum; null for array transforms).
    package var transformResults: [[Value]]

    package init(commitTime: Timestamp, transformResults: [[Value]]) {
        self.commitTime = commitTime
        self.transformResults = transformResults
    }
}
