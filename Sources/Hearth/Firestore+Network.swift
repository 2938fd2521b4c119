public import DocumentModel
package import Foundation

extension Firestore {
    /// Stops using the network: listeners show the cache (`metadata.isFromCache`), reads with
    /// `.default` answer from the cache, writes are queued until `enableNetwork()`.
    public func disableNetwork() async {
        sync.disableNetwork()
    }

    /// Uses the network again: listeners listen again, queued writes are sent in order.
    public func enableNetwork() async {
        sync.enableNetwork()
    }

    /// Returns once every write queued before the call has been acknowledged or rejected by the
    /// server (it waits while the server is away).
    public func waitForPendingWrites() async throws {
        await sync.waitForPendingWrites()
    }

    /// Deletes the persistent cache's folder, pending writes included. Only after
    /// `terminate()`, as in the Firebase SDK; nothing to delete for a memory cache.
    ///
    /// - Throws: `.failedPrecondition` while the instance is running, or while another
    ///   instance uses the folder.
    public func clearPersistence() async throws {
        guard sync.isTerminated else {
            throw FirestoreError(
                .failedPrecondition, "Persistence can only be cleared before the Firestore instance is started, or after terminate().")
        }
        try sync.persistence?.destroyLocalStore()
    }

    /// Calls `listener` when the server rejects a queued write whose caller no longer waits for
    /// it (its task was cancelled, or the process that made it has ended). The write's effects
    /// have then left every listener. Rejections are also written to the standard error.
    @discardableResult
    public func addWriteFailureListener(_ listener: @escaping @Sendable (WriteFailure) -> Void)
        -> any ListenerRegistration
    {
        let id = sync.addFailureListener(listener)
        return WriteFailureRegistration(sync: sync, id: id)
    }
}

/// A write the server rejected after its caller stopped waiting for it.
public struct WriteFailure: Sendable {
    /// The paths of the documents the rejected batch wrote (`users/alice`).
    public let documentPaths: [String]
    /// Why the server rejected it (`.permissionDenied`, `.notFound`, `.failedPrecondition`, ...).
    public let error: FirestoreError
}

/// The registration of a write-failure listener.
final class WriteFailureRegistration: ListenerRegistration {
    private let sync: SyncEngine
    private let id: Int

    init(sync: SyncEngine, id: Int) {
        self.sync = sync
        self.id = id
    }

    func remove() {
        sync.removeFailureListener(id)
    }
}

extension Firestore {
    /// Runs a model query from `source` through this instance's cache and queue, as
    /// `Query.getDocuments(source:)` does (for the package's conformance tests, which replay
    /// recorded wire queries).
    package func documents(of query: DocumentModel.Query, source: FirestoreSource) async throws -> [Document] {
        try await sync.runQuery(query, source: source).documents.map(\.document)
    }
}
