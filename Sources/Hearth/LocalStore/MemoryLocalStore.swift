package import DocumentModel
import QueryEngine
import Synchronization

/// The local cache in memory (`MemoryCacheSettings`): gone with the process, with the same
/// semantics as `PersistentLocalStore` (see `LocalStore`), over dictionaries under a `Mutex`.
package final class MemoryLocalStore: LocalStore {
    private struct Stored {
        var entry: RemoteEntry
        /// The size the entry counts for, as `PersistentLocalStore` counts it.
        var size: Int64
    }

    private struct State {
        var entries: [DocumentName: Stored] = [:]
        var targets: [String: TargetRecord] = [:]
        var batches: [Int64: MutationBatch] = [:]
        var lastBatchID: Int64 = 0
        var size: Int64 = 0
        /// The field index of `entries`' documents, once a query has read it (`indexed`): an
        /// instance that never queries its cache, such as most embedded ones, never pays for it.
        var index = MemoryFieldIndex()
        var indexed = false

        /// Builds the index from every entry, the first time it is needed.
        mutating func requireIndex() {
            guard !indexed else { return }
            indexed = true
            for stored in entries.values { index.update(from: nil, to: stored.entry.document) }
        }

        /// Keeps the index, once built, in step with an entry going from `old` to `new`.
        mutating func updateIndex(from old: Document?, to new: Document?) {
            if indexed { index.update(from: old, to: new) }
        }
        var closed = false
    }

    private let state = Mutex(State())
    /// The size limit of the remote entries; negative: none.
    package let sizeBytes: Int64

    /// An empty cache; `sizeBytes`: the size estimate above which remote entries are evicted
    /// (negative, the default: never).
    package init(sizeBytes: Int64 = -1) {
        self.sizeBytes = sizeBytes
    }

    /// The current size estimate of the remote entries (0 without a limit: nothing is measured).
    package var sizeEstimate: Int64 { state.withLock { $0.size } }

    private func withOpenState<R>(_ body: (inout State) throws -> R) throws -> R {
        try state.withLock { state in
            guard !state.closed else { throw FirestoreError(.failedPrecondition, "The memory cache is closed") }
            return try body(&state)
        }
    }

    package func entry(_ name: DocumentName) throws -> RemoteEntry? {
        try withOpenState { $0.entries[name]?.entry }
    }

    package func documents(in database: DatabaseID, parent: ResourcePath, collectionID: String, allDescendants: Bool) throws
        -> [Document]
    {
        let prefix = parent.segments + (!allDescendants && !collectionID.isEmpty ? [collectionID] : [])
        let found = try withOpenState { state in
            state.entries.values.compactMap { stored -> Document? in
                guard let document = stored.entry.document, document.name.databaseID == database else { return nil }
                let segments = document.name.path.segments
                guard segments.count > parent.segments.count, segments.starts(with: prefix) else { return nil }
                return document
            }
        }
        // Storage-key order, as the persistent cache answers.
        return found.map { (LocalStoreLayout.documentKey($0.name), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }
            .map(\.1)
    }

    package func documents(
        indexedBy scan: CacheIndexScan, including include: (DocumentName) -> Bool, accepting accept: (Document) -> Bool
    ) throws -> [Document] {
        try withOpenState { state in
            state.requireIndex()
            var documents: [Document] = []
            var seen = Set<DocumentName>()
            let group = scan.group
            let entries = state.entries
            let intervals = scan.reverse ? scan.ranges.intervals.reversed() : scan.ranges.intervals
            for interval in intervals {
                let finished = state.index.forEachName(
                    in: group, from: interval.lower, to: interval.upper, reverse: scan.reverse
                ) { name in
                    guard include(name), scan.kind == .value || seen.insert(name).inserted,
                        let document = entries[name]?.entry.document, accept(document)
                    else { return true }
                    documents.append(document)
                    return scan.limit.map { documents.count < $0 } ?? true
                }
                if !finished { break }
            }
            return documents
        }
    }

    /// The number of entries in the field index (for checks).
    package var indexEntryCount: Int {
        state.withLock { state in
            state.requireIndex()
            return state.index.count
        }
    }

    package func target(_ key: String) throws -> TargetRecord? {
        try withOpenState { $0.targets[key] }
    }

    package func mutationBatches() throws -> [MutationBatch] {
        try withOpenState { $0.batches.values.sorted { $0.batchID < $1.batchID } }
    }

    package func nextBatchID() throws -> Int64 {
        try withOpenState { $0.lastBatchID + 1 }
    }

    package func apply(_ change: LocalStoreChange) throws {
        try withOpenState { state in
            // Validate first, so that a refused change changes nothing.
            let lastBatchID = try change.lastBatchID(after: state.lastBatchID)
            for (name, entry) in change.entries {
                // Without a limit nothing is evicted, and the encoding is not worth measuring.
                let size =
                    sizeBytes < 0
                    ? 0 : LocalStoreLayout.size(key: LocalStoreLayout.documentKey(name), value: LocalStoreLayout.encode(entry))
                state.size += size - (state.entries[name]?.size ?? 0)
                state.updateIndex(from: state.entries[name]?.entry.document, to: entry.document)
                state.entries[name] = Stored(entry: entry, size: size)
            }
            for (key, record) in change.targets {
                state.targets[key] = record
            }
            for id in change.removedBatchIDs {
                state.batches[id] = nil
            }
            for batch in change.addedBatches {
                state.batches[batch.batchID] = batch
            }
            state.lastBatchID = lastBatchID
            if CacheEviction.isOver(state.size, limit: sizeBytes) { evict(&state) }
        }
    }

    private func evict(_ state: inout State) {
        let protected = Set(state.batches.values.flatMap { $0.writes.map(\.name) })
        let candidates = state.entries.map { name, stored in
            CacheEviction.Candidate(key: name, readTime: stored.entry.readTime, size: stored.size)
        }
        let victims = CacheEviction.victims(
            candidates, protected: protected, total: state.size, limit: sizeBytes, orderedBy: <)
        guard !victims.isEmpty else { return }
        for victim in victims {
            state.updateIndex(from: state.entries[victim.key]?.entry.document, to: nil)
            state.entries[victim.key] = nil
            state.size -= victim.size
        }
        state.targets.removeAll()
    }

    package func close() throws {
        state.withLock { state in
            state.closed = true
            state.entries.removeAll()
            state.index.removeAll()
            state.targets.removeAll()
            state.batches.removeAll()
        }
    }
}
