package import DocumentModel

/// The client's local cache: documents as the server last sent them (remote entries), listen
/// targets' resume state, and the queue of writes not yet acknowledged (mutation batches).
///
/// Two implementations with the same semantics: `MemoryLocalStore` (dictionaries, gone with the
/// process) and `PersistentLocalStore` (a LevelDB folder, as the iOS SDK's persistent cache).
///
/// **Field index.** Both keep a field index of their cached documents (`CacheIndex`), changed
/// with the remote entries in the same `apply(_:)` and eviction, so that a query over the cache
/// reads the documents its filter or order selects (`documents(indexedBy:...)`) rather than its
/// whole collection.
///
/// **Size and eviction.** Both keep a running estimate of the remote entries' size: per entry,
/// the bytes of its storage key and encoded value (`LocalStoreLayout`), documents and
/// known-missing entries alike; target records, mutation batches and the field index do not
/// count. When an `apply(_:)` takes the estimate above the store's `sizeBytes` (a negative
/// limit: none), remote entries that no pending mutation batch writes are evicted, oldest
/// `readTime` first, until the estimate is under 90% of the limit. Evicting invalidates the resume tokens of the
/// targets whose results lost documents, and the store does not know which those are: so an
/// eviction also removes every target record (the next listen of each target is a full one).
///
/// Errors are `FirestoreError`s: `.failedPrecondition` after `close()` or for a persistent
/// cache in use elsewhere, `.dataLoss` for damaged data, `.invalidArgument` for a batch ID that
/// is not above every ID used before.
package protocol LocalStore: AnyObject, Sendable {
    /// The cached state of the document `name`, or `nil` when the cache knows nothing of it.
    func entry(_ name: DocumentName) throws -> RemoteEntry?
    /// Cached existing documents of `database` whose path starts with `parent` (+ `collectionID`
    /// when not `allDescendants` and not empty); a superset of a query's scope is fine.
    ///
    /// Documents below `parent` only (never `parent` itself), at any depth, in storage-key order.
    func documents(in database: DatabaseID, parent: ResourcePath, collectionID: String, allDescendants: Bool) throws
        -> [Document]
    /// The cached existing documents `scan` lists (see `CacheIndexScan`): those with an index
    /// entry of its field and kind in its ranges, in index order (by value, then name; the
    /// reverse for `scan.reverse`), each once; `include` is asked by name before a document is
    /// read, `accept` with the document. With `scan.limit`, the scan stops once that many
    /// documents were accepted.
    func documents(
        indexedBy scan: CacheIndexScan, including include: (DocumentName) -> Bool, accepting accept: (Document) -> Bool
    ) throws -> [Document]
    /// The record of the target `key`, or `nil`.
    func target(_ key: String) throws -> TargetRecord?
    /// The pending mutation batches, in batchID order.
    func mutationBatches() throws -> [MutationBatch]
    /// The ID the next added batch should have: one above every batch ID ever added to this
    /// cache (it does not reserve it; 1 for a new cache).
    func nextBatchID() throws -> Int64
    /// Applies `change` atomically; once it returns, it survives the process being killed.
    func apply(_ change: LocalStoreChange) throws
    /// Releases the store (a persistent cache's folder lock); later calls throw
    /// `.failedPrecondition`. Closing twice does nothing.
    func close() throws
}
