public import DocumentModel
import QueryEngine
import LevelDB

/// The answer to a query.
public struct QueryResult: Sendable, Hashable {
    /// The time the query read the database at.
    public var readTime: Timestamp
    /// The results in the query's order, projected when the query selects fields.
    public var documents: [Document]
}

extension DocumentStore {
    /// Runs a query at `readTime` (the latest commit if `nil`), with Firestore's semantics as
    /// Google's emulator has them (see `Docs/Compatibility.md`).
    ///
    /// ```swift
    /// let adults = try store.runQuery(Query(
    ///     database: db, parent: .root,
    ///     structured: StructuredQuery(
    ///         from: .collection("users"), filter: .field(try FieldPath("age"), .greaterThanOrEqual, 18),
    ///         orderBy: [Order(try FieldPath("age"))], limit: 20)))
    /// ```
    ///
    /// Run as `identity` (the admin by default, which bypasses security rules), the rules'
    /// `list` must allow every document the query could return, judged from its constraints
    /// (rules are not filters).
    ///
    /// - Throws: `.invalidArgument` for a query Firestore refuses, with its message;
    ///   `.failedPrecondition` or `.invalidArgument` for a read time out of the retention window;
    ///   `.permissionDenied` naming the rules evaluated when the rules deny the query.
    public func runQuery(_ query: Query, readTime: Timestamp? = nil, as identity: RequestIdentity = .admin) throws
        -> QueryResult
    {
        try authorize(query, as: identity)
        let prepared = try QueryValidator.prepare(query)
        let result = try run(
            prepared, of: query, version: try readTime.map { _ in try readVersion(for: readTime) })
        return QueryResult(
            readTime: result.readTime, documents: result.documents.map { Projection.apply(prepared.projection, to: $0) })
    }

    /// Runs `query`, prepared, at `version` (the newest if `nil`; an older one must be within
    /// the retention window), returning its documents unprojected.
    func run(
        _ prepared: PreparedQuery, of query: Query, version: Int64?
    ) throws -> (readTime: Timestamp, documents: [Document]) {
        try withSnapshotReader(query.database, version: version, reading: query.rangeDescription) { reader in
            let planned = try QueryPlanner(query: prepared, reader: reader).plan()
            var documents: [Document] = []
            try QueryExecutor(query: prepared, reader: reader, planned: planned).run { document in
                documents.append(document)
                return true
            }
            return (reader.readTime, documents)
        }
    }

    /// The plan `runQuery` would follow for `query` now (or at `readTime`); see `QueryPlanner`.
    public func explain(_ query: Query, readTime: Timestamp? = nil) throws -> QueryPlan {
        let prepared = try QueryValidator.prepare(query)
        return try withSnapshotReader(query.database, readTime: readTime, reading: query.rangeDescription) { reader in
            try QueryPlanner(query: prepared, reader: reader).plan().description
        }
    }

    /// Runs `body` with a consistent view of the store at `readTime` (validated as for every
    /// read), mapping LevelDB failures; damage names `what` was being read.
    func withSnapshotReader<R>(
        _ databaseID: DatabaseID, readTime: Timestamp?, reading what: @autoclosure () -> String,
        _ body: (SnapshotReader) throws -> R
    ) throws -> R {
        try withSnapshotReader(
            databaseID, version: try readTime.map { _ in try readVersion(for: readTime) }, reading: what(), body)
    }

    /// Runs `body` with a consistent view of the store at `version` (the newest if `nil`; one
    /// already validated, such as a read-only transaction's), mapping LevelDB failures; damage
    /// names `what` was being read.
    func withSnapshotReader<R>(
        _ databaseID: DatabaseID, version requested: Int64?, reading what: @autoclosure () -> String,
        _ body: (SnapshotReader) throws -> R
    ) throws -> R {
        try mapLevelDBErrors(reading: what()) {
            let (snapshot, version) = try versionedSnapshot()
            return try body(
                SnapshotReader(
                    database, databaseID: databaseID, snapshot: snapshot, snapshotVersion: version,
                    requestedVersion: requested))
        }
    }
}

extension Query {
    /// What the query reads, for messages: `The query of collection 'users/alice/posts'`.
    var rangeDescription: String {
        let parentPath = parent.segments.isEmpty ? "" : "\(parent)/"
        return structured.from.allDescendants
            ? "The query of collection group '\(structured.from.collectionID)' under '\(parent)'"
            : "The query of collection '\(parentPath)\(structured.from.collectionID)'"
    }
}
