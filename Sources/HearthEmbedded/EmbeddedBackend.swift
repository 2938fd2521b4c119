import DocumentModel
import DocumentStore
import Foundation
import Hearth

/// A `DocumentStore` in this process, called with the identity's `as:` variants so that
/// security rules apply exactly as they do behind the server.
final class EmbeddedBackend: Backend {
    /// What shutting down does to the store.
    enum Ownership: Sendable {
        /// The caller's store: left open.
        case borrowed
        /// A store the backend opened: closed.
        case owned
        /// A store in a temporary folder: closed, and the folder deleted.
        case temporary(URL)
    }

    let store: DocumentStore
    private let ownership: Ownership
    /// Signed-in identities as the rules see them, made at most once a second.
    private let requestIdentities = RequestIdentityCache()

    init(store: DocumentStore, ownership: Ownership) {
        self.store = store
        self.ownership = ownership
    }

    func lookup(_ names: [DocumentName], transaction: TransactionID?, as identity: Identity) async throws
        -> (readTime: Timestamp, documents: [Document?])
    {
        let requestIdentity = try identity.requestIdentity(project: project(of: names.first), cache: requestIdentities)
        guard let transaction else {
            // One read time for all, then the rules judge each document as read.
            return try await store.reading { [store] in
                let (readTime, documents) = try store.documents(names)
                try store.authorizeReads(names, documents: documents, as: requestIdentity)
                return (readTime, documents)
            }
        }
        if requestIdentity != .admin {
            // The rules' `get` judges the newest version, which the locked read then returns.
            try await store.reading { [store] in
                for name in names { _ = try store.document(name, as: requestIdentity) }
            }
        }
        let result = try await store.documents(names, transaction: transaction)
        return (result.readTime, result.documents)
    }

    func runQuery(_ query: DocumentModel.Query, transaction: TransactionID?, as identity: Identity) async throws
        -> (readTime: Timestamp, documents: [Document])
    {
        let requestIdentity = try identity.requestIdentity(project: query.database.project, cache: requestIdentities)
        let result =
            if let transaction {
                try await store.runQuery(query, transaction: transaction, as: requestIdentity)
            } else {
                try await store.reading { [store] in try store.runQuery(query, as: requestIdentity) }
            }
        return (result.readTime, result.documents)
    }

    func runAggregation(_ query: AggregationQuery, as identity: Identity) async throws -> MapValue {
        let identity = try identity.requestIdentity(project: query.query.database.project, cache: requestIdentities)
        return try await store.reading { [store] in try store.runAggregation(query, as: identity).fields }
    }

    func commit(_ writes: [Write], transaction: TransactionID?, as identity: Identity) async throws -> CommitReport {
        let requestIdentity = try identity.requestIdentity(project: project(of: writes.first?.name), cache: requestIdentities)
        let result =
            if let transaction {
                try await store.commit(writes, transaction: transaction, as: requestIdentity)
            } else {
                try await store.commitWaitingForLocks(writes, as: requestIdentity)
            }
        return CommitReport(commitTime: result.commitTime, transformResults: result.writeResults.map(\.transformResults))
    }

    func beginTransaction(retrying: TransactionID?, as identity: Identity) async throws -> TransactionID {
        try await store.reading { [store] in try store.beginTransaction(.readWrite(retrying: retrying)) }
    }

    func rollback(_ transaction: TransactionID, as identity: Identity) async {
        store.rollback(transaction)
    }

    /// The store's listener starts with the target's whole state: `resume` is not needed.
    func watch(_ target: ListenTarget, resuming resume: WatchResume?, as identity: Identity) -> AsyncStream<WatchEvent> {
        let (stream, continuation) = AsyncStream<WatchEvent>.makeStream(bufferingPolicy: WatchEvent.buffering)
        let store = store
        let cache = requestIdentities
        let task = Task {
            do {
                // The listener's queries and diffs run on the store's reader threads.
                try await store.reading {
                    let listener = try store.listen(
                        to: target, as: try identity.requestIdentity(project: target.database.project, cache: cache))
                    for try await snapshot in listener {
                        continuation.yield(.snapshot(WatchSnapshot(readTime: snapshot.readTime, documents: snapshot.documents)))
                    }
                }
            } catch is CancellationError {
            } catch {
                continuation.yield(.failed(FirestoreError.wrapping(error)))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    func shutdown() async {
        switch ownership {
        case .borrowed:
            return
        case .owned:
            try? store.close()
        case .temporary(let folder):
            try? store.close()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The project of a request's first document (all are in one database).
    private func project(of name: DocumentName?) -> String {
        name?.databaseID.project ?? ""
    }
}
