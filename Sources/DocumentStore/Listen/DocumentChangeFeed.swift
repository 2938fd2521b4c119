package import DocumentModel
import QueryEngine

/// The commits that change a listen target's documents, as they are published: each with the
/// documents' states before and after it. Unlike a `ListenerStream` it never reads the target
/// again, so it costs the same for a collection of any size; it suits a view that applies
/// changes to what it read itself (the server's console).
///
/// Like a listener, the feed never holds up writers: when its consumer falls more than
/// `Listener.maxQueuedCommits` commits behind, the queued ones are dropped and the next batch
/// says so (`overflowed`), for the consumer to read the target again.
///
/// ```swift
/// let feed = try store.changeFeed(for: .query(collectionQuery))
/// let page = try store.listDocuments(parent: .root, collectionID: "users", of: db, pageSize: 50)
/// while let batch = await feed.next() {
///     for change in batch.changes where batch.version > page.readTime.microsecondsSinceEpoch { ... }
/// }
/// ```
package final class DocumentChangeFeed: Sendable {
    /// Commits taken from the feed at once.
    package struct Batch: Sendable {
        /// The commits, in commit order, each with only the target's documents.
        package var commits: [CommitEvent]
        /// Whether commits were dropped before these: the consumer must read the target again.
        package var overflowed: Bool
    }

    private let store: DocumentStore
    private let listener: Listener

    init(store: DocumentStore, listener: Listener) {
        self.store = store
        self.listener = listener
    }

    deinit {
        store.listeners.remove(listener)
    }

    /// The next commits, waiting for one; `nil` once the feed is cancelled (as it is when the
    /// waiting task is).
    package func next() async -> Batch? {
        await withTaskCancellationHandler {
            await listener.takeQueued().map { Batch(commits: $0.events, overflowed: $0.overflowed) }
        } onCancel: { [store, listener] in
            store.listeners.remove(listener)
        }
    }

    /// Stops the feed; `next()` returns `nil` from then on.
    package func cancel() {
        store.listeners.remove(listener)
    }
}

extension DocumentStore {
    /// Starts a feed of the commits that change `target`'s documents (for a query, the
    /// documents in its scope, whatever its filters, order and limit).
    ///
    /// - Throws: `.invalidArgument` for a query Firestore refuses.
    package func changeFeed(for target: ListenTarget) throws -> DocumentChangeFeed {
        let prepared: PreparedQuery? =
            if case .query(let query) = target { try QueryValidator.prepare(query) } else { nil }
        return DocumentChangeFeed(store: self, listener: listeners.register(target, prepared: prepared))
    }
}
