package import DocumentModel
package import Foundation
package import Hearth
internal import LevelDB
import QueryEngine
import Synchronization

/// The local cache in a LevelDB folder (`PersistentCacheSettings`), as the iOS SDK's persistent
/// cache: remote documents, target records and the mutation queue survive restarts and crashes.
/// Keys and values: `LocalStoreLayout`; size and eviction: `LocalStore`.
///
/// One instance at a time holds the folder (LevelDB's `LOCK` file, in this process or another):
/// a second open throws `.failedPrecondition`. LevelDB runs with paranoid checks and every read
/// verifies block checksums, as the document store does, so damage is `.dataLoss`, never a
/// silently shorter cache.
///
/// ```swift
/// let cache = try PersistentLocalStore(path: folder, sizeBytes: 100 * 1024 * 1024)
/// try cache.apply(LocalStoreChange(addedBatches: [batch]))   // survives the process being killed
/// try cache.close()
/// try PersistentLocalStore.destroy(path: folder)             // clearPersistence
/// ```
package final class PersistentLocalStore: LocalStore {
    private struct State {
        /// The size estimate of the remote entries (see `LocalStore`).
        var size: Int64
        /// The highest batch ID ever added.
        var lastBatchID: Int64
        var closed = false
    }

    /// The cache's folder.
    package let path: String
    /// The size estimate above which remote entries are evicted; negative: never.
    package let sizeBytes: Int64
    private let database: Database
    /// Serializes changes, with the running size estimate and the last batch ID.
    private let state: Mutex<State>

    /// Opens the cache in the folder `path`, creating the folder (and its parents) if absent.
    ///
    /// Recomputes the size estimate with one scan of the remote entries, and evicts at once if
    /// it is above `sizeBytes`.
    ///
    /// - Throws: `FirestoreError(.failedPrecondition, "The persistent cache at <path> is in use
    ///   by another Firestore instance or process ...")` when another instance holds the folder;
    ///   `.failedPrecondition` for a cache written by a newer layout; `.dataLoss` for damage;
    ///   `.internal` when the folder cannot be created or read.
    package init(path: String, sizeBytes: Int64) throws {
        self.path = path
        self.sizeBytes = sizeBytes
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FirestoreError(
                .internal, "Cannot create the persistent cache folder \(path): \(error.localizedDescription)")
        }
        let database: Database
        do {
            database = try Database(path: path, options: OpenOptions())
        } catch let error as LevelDBError {
            throw Self.cacheError(error, path: path)
        }
        do {
            let (size, lastBatchID) = try Self.prepare(database, path: path)
            self.database = database
            state = Mutex(State(size: size, lastBatchID: lastBatchID))
            if CacheEviction.isOver(size, limit: sizeBytes) {
                try state.withLock { try evict(&$0) }
            }
        } catch {
            try? database.close()
            throw error
        }
    }

    /// Checks (or writes) the layout version; returns the size estimate and the last batch ID.
    private static func prepare(_ database: Database, path: String) throws -> (size: Int64, lastBatchID: Int64) {
        try mappingErrors(path: path) {
            if let stored = try database.get(LocalStoreLayout.formatKey) {
                let format = try LocalStoreLayout.decodeInteger(stored, what: "layout version")
                guard format <= LocalStoreLayout.format else {
                    throw FirestoreError(
                        .failedPrecondition,
                        "The persistent cache at \(path) has layout version \(format), newer than this Hearth's "
                            + "(\(LocalStoreLayout.format)); clear it (clearPersistence) or use a newer Hearth")
                }
                if format < LocalStoreLayout.format { try upgrade(database, from: format) }
            } else {
                try database.put(LocalStoreLayout.formatKey, LocalStoreLayout.encodeInteger(LocalStoreLayout.format),
                                 sync: true)
            }
            var size: Int64 = 0
            try database.forEachEntry(
                withPrefix: [LocalStoreLayout.documentTag], options: ReadOptions(fillCache: false)
            ) { key, value in
                size += LocalStoreLayout.size(key: key, value: value)
            }
            var lastBatchID: Int64 = 0
            if let stored = try database.get(LocalStoreLayout.lastBatchIDKey) {
                lastBatchID = Int64(bitPattern: try LocalStoreLayout.decodeInteger(stored, what: "last batch ID"))
            }
            return (size, lastBatchID)
        }
    }

    /// Upgrades a cache of an older layout in one write: layout 1's target records (without
    /// members) are removed, so each target's next listen is a full one; a cache of layout 1 or
    /// 2 gets the field index of its documents.
    private static func upgrade(_ database: Database, from format: UInt64) throws {
        let batch = LevelDB.WriteBatch()
        if format < 2 {
            try database.forEachEntry(withPrefix: [LocalStoreLayout.targetTag]) { key, _ in batch.delete(key) }
        }
        if format < LocalStoreLayout.indexedFormat {
            try database.forEachEntry(
                withPrefix: [LocalStoreLayout.documentTag], options: ReadOptions(fillCache: false)
            ) { key, value in
                guard LocalStoreLayout.entryHoldsDocument(value) else { return }
                let name = try LocalStoreLayout.documentName(fromKey: key)
                for entry in CacheIndex.entries(of: try LocalStoreLayout.decodeEntry(value, name: name).document) {
                    batch.put(entry.key, indexValue(name))
                }
            }
        }
        batch.put(LocalStoreLayout.formatKey, LocalStoreLayout.encodeInteger(LocalStoreLayout.format))
        try database.write(batch, sync: true)
    }

    /// The stored value of an index entry of the document `name`: the length of the encoded
    /// path that ends the entry's key.
    private static func indexValue(_ name: DocumentName) -> [UInt8] {
        var bytes: [UInt8] = []
        LocalStoreLayout.appendUInt32(UInt32(CacheIndex.encodedPath(name.path).count), to: &bytes)
        return bytes
    }

    /// Adds to `batch` the index changes of the document `name` going from `old` to `new`.
    private static func updateIndex(_ batch: LevelDB.WriteBatch, name: DocumentName, from old: Document?, to new: Document?) {
        let (removed, added) = CacheIndex.changes(from: old, to: new)
        for entry in removed { batch.delete(entry.key) }
        guard !added.isEmpty else { return }
        let value = indexValue(name)
        for entry in added { batch.put(entry.key, value) }
    }

    /// Deletes the cache's folder (`Firestore.clearPersistence()`); an absent folder is fine.
    /// A damaged cache is deleted too.
    ///
    /// - Throws: `.failedPrecondition` while an instance (in this process or another) has the
    ///   cache open; `.internal` when the folder cannot be deleted.
    package static func destroy(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        var options = OpenOptions()
        options.createIfMissing = false
        do {
            try Database(path: path, options: options).close()
        } catch let error as LevelDBError where error.code == .databaseInUse {
            throw cacheError(error, path: path)
        } catch {
            // No database or a damaged one: the folder goes all the same.
        }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw FirestoreError(
                .internal, "Cannot delete the persistent cache at \(path): \(error.localizedDescription)")
        }
    }

    /// The current size estimate of the remote entries.
    package var sizeEstimate: Int64 { state.withLock { $0.size } }

    package func entry(_ name: DocumentName) throws -> RemoteEntry? {
        try mappingErrors {
            guard let value = try database.get(LocalStoreLayout.documentKey(name)) else { return nil }
            return try LocalStoreLayout.decodeEntry(value, name: name)
        }
    }

    package func documents(
        in database: DatabaseID, parent: ResourcePath, collectionID: String, allDescendants: Bool
    ) throws -> [Document] {
        let prefix = LocalStoreLayout.documentScanPrefix(
            database: database, parent: parent, collectionID: collectionID, allDescendants: allDescendants)
        var documents: [Document] = []
        try mappingErrors {
            try self.database.forEachEntry(withPrefix: prefix) { key, value in
                guard LocalStoreLayout.entryHoldsDocument(value) else { return }
                let name = try LocalStoreLayout.documentName(fromKey: key)
                // The parent document itself is not below the parent.
                guard name.path.segments.count > parent.segments.count,
                    let document = try LocalStoreLayout.decodeEntry(value, name: name).document
                else { return }
                documents.append(document)
            }
        }
        return documents
    }

    package func documents(
        indexedBy scan: CacheIndexScan, including include: (DocumentName) -> Bool, accepting accept: (Document) -> Bool
    ) throws -> [Document] {
        var documents: [Document] = []
        var seen = Set<DocumentName>()
        let group = scan.group
        try mappingErrors {
            let cursor = try self.database.makeCursor()
            let intervals = scan.reverse ? scan.ranges.intervals.reversed() : scan.ranges.intervals
            for interval in intervals {
                let lower = group + interval.lower
                let upper = interval.upper.map { group + $0 } ?? KeyRange.successor(ofPrefix: group)
                if !scan.reverse {
                    cursor.seek(to: lower)
                } else if let upper {
                    cursor.seek(to: upper)
                    if cursor.isValid { cursor.previous() } else { cursor.seekToLast() }
                } else {
                    cursor.seekToLast()
                }
                while cursor.isValid {
                    if scan.reverse {
                        if cursor.compareKey(to: lower) < 0 { break }
                    } else if let upper, cursor.compareKey(to: upper) >= 0 {
                        break
                    }
                    let key = cursor.key
                    var lengthReader = StoredBytesReader(cursor.value, what: "field index entry")
                    let pathLength = Int(try lengthReader.readUInt32())
                    guard pathLength <= key.count - group.count else { throw lengthReader.corrupt("path longer than the key") }
                    var pathReader = OrderedKeyReader(Array(key[(key.count - pathLength)...]))
                    let name: DocumentName
                    do {
                        name = try DocumentName(scan.database, try pathReader.readPath())
                    } catch {
                        throw lengthReader.corrupt("the document path cannot be read (\(error))")
                    }
                    if scan.reverse { cursor.previous() } else { cursor.next() }
                    guard include(name), scan.kind == .value || seen.insert(name).inserted,
                        let stored = try self.database.get(LocalStoreLayout.documentKey(name)),
                        let document = try LocalStoreLayout.decodeEntry(stored, name: name).document, accept(document)
                    else { continue }
                    documents.append(document)
                    if let limit = scan.limit, documents.count >= limit { return }
                }
                try cursor.checkError()
            }
        }
        return documents
    }

    /// The number of entries in the field index (for checks).
    package func indexEntryCount() throws -> Int {
        var count = 0
        try mappingErrors {
            try database.forEachEntry(withPrefix: [CacheIndex.tag], options: ReadOptions(fillCache: false)) { _, _ in count += 1 }
        }
        return count
    }

    package func target(_ key: String) throws -> TargetRecord? {
        try mappingErrors {
            guard let value = try database.get(LocalStoreLayout.targetKey(key)) else { return nil }
            return try LocalStoreLayout.decodeTarget(value, key: key)
        }
    }

    package func mutationBatches() throws -> [MutationBatch] {
        var batches: [MutationBatch] = []
        try mappingErrors {
            try database.forEachEntry(withPrefix: [LocalStoreLayout.batchTag]) { key, value in
                batches.append(try LocalStoreLayout.decodeBatch(value, batchID: LocalStoreLayout.batchID(fromKey: key)))
            }
        }
        return batches
    }

    package func nextBatchID() throws -> Int64 {
        try withOpenState { $0.lastBatchID + 1 }
    }

    /// Applies `change` in one LevelDB write batch, then evicts if the size estimate is above
    /// `sizeBytes` (a separate write). Writes are not synced, as the Firebase SDKs' LevelDB
    /// cache does not sync them: a queued batch survives the process being killed (it is in
    /// the operating system's buffers once `apply` returns), not a power loss; syncing would
    /// put a disk flush between a write and its listeners.
    package func apply(_ change: LocalStoreChange) throws {
        try withOpenState { state in
            let batch = LevelDB.WriteBatch()
            let lastBatchID = try change.lastBatchID(after: state.lastBatchID)
            var size = state.size
            for (name, entry) in change.entries {
                let key = LocalStoreLayout.documentKey(name)
                let value = LocalStoreLayout.encode(entry)
                var oldDocument: Document?
                if let old = try database.get(key) {
                    size -= LocalStoreLayout.size(key: key, value: old)
                    if LocalStoreLayout.entryHoldsDocument(old) {
                        oldDocument = try LocalStoreLayout.decodeEntry(old, name: name).document
                    }
                }
                size += LocalStoreLayout.size(key: key, value: value)
                batch.put(key, value)
                Self.updateIndex(batch, name: name, from: oldDocument, to: entry.document)
            }
            for (key, record) in change.targets {
                if let record {
                    batch.put(LocalStoreLayout.targetKey(key), LocalStoreLayout.encode(record))
                } else {
                    batch.delete(LocalStoreLayout.targetKey(key))
                }
            }
            for id in change.removedBatchIDs {
                batch.delete(LocalStoreLayout.batchKey(id))
            }
            for added in change.addedBatches {
                batch.put(LocalStoreLayout.batchKey(added.batchID), try LocalStoreLayout.encode(added))
            }
            if lastBatchID != state.lastBatchID {
                batch.put(LocalStoreLayout.lastBatchIDKey, LocalStoreLayout.encodeInteger(UInt64(bitPattern: lastBatchID)))
            }
            try database.write(batch)
            state.size = size
            state.lastBatchID = lastBatchID
            if CacheEviction.isOver(size, limit: sizeBytes) { try evict(&state) }
        }
    }

    /// Evicts remote entries no pending batch writes, oldest read time first, until the size is
    /// under 90% of `sizeBytes`, and removes every target record (see `LocalStore`). Measures
    /// the entries again on the way, so the estimate is exact afterwards.
    private func evict(_ state: inout State) throws {
        var protected = Set<[UInt8]>()
        try database.forEachEntry(withPrefix: [LocalStoreLayout.batchTag]) { key, value in
            let batch = try LocalStoreLayout.decodeBatch(value, batchID: LocalStoreLayout.batchID(fromKey: key))
            for write in batch.writes { protected.insert(LocalStoreLayout.documentKey(write.name)) }
        }
        var candidates: [CacheEviction.Candidate<[UInt8]>] = []
        var total: Int64 = 0
        try database.forEachEntry(
            withPrefix: [LocalStoreLayout.documentTag], options: ReadOptions(fillCache: false)
        ) { key, value in
            let size = LocalStoreLayout.size(key: key, value: value)
            total += size
            candidates.append(.init(key: key, readTime: try LocalStoreLayout.readTime(ofEntry: value), size: size))
        }
        state.size = total
        let victims = CacheEviction.victims(
            candidates, protected: protected, total: total, limit: sizeBytes,
            orderedBy: { $0.lexicographicallyPrecedes($1) })
        guard !victims.isEmpty else { return }
        let batch = LevelDB.WriteBatch()
        for victim in victims {
            batch.delete(victim.key)
            if let value = try database.get(victim.key), LocalStoreLayout.entryHoldsDocument(value) {
                let name = try LocalStoreLayout.documentName(fromKey: victim.key)
                Self.updateIndex(batch, name: name, from: try LocalStoreLayout.decodeEntry(value, name: name).document, to: nil)
            }
        }
        try database.forEachEntry(withPrefix: [LocalStoreLayout.targetTag]) { key, _ in batch.delete(key) }
        try database.write(batch)
        state.size = total - victims.reduce(0) { $0 + $1.size }
    }

    package func close() throws {
        try state.withLock { state in
            guard !state.closed else { return }
            try mappingErrors { try database.close() }
            state.closed = true
        }
    }

    private func withOpenState<R: Sendable>(_ body: (inout State) throws -> R) throws -> R {
        try state.withLock { state in
            guard !state.closed else { throw FirestoreError(.failedPrecondition, "The persistent cache at \(path) is closed") }
            return try mappingErrors { try body(&state) }
        }
    }

    private func mappingErrors<R>(_ body: () throws -> R) throws -> R {
        try Self.mappingErrors(path: path, body)
    }

    private static func mappingErrors<R>(path: String, _ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as LevelDBError { throw cacheError(error, path: path) }
    }

    /// The `FirestoreError` of a LevelDB failure, naming the cache's folder.
    private static func cacheError(_ error: LevelDBError, path: String) -> FirestoreError {
        switch error.code {
        case .databaseInUse:
            FirestoreError(
                .failedPrecondition,
                "The persistent cache at \(path) is in use by another Firestore instance or process; terminate "
                    + "that instance first (\(error.message))")
        case .corruption: FirestoreError(.dataLoss, "The persistent cache at \(path) is damaged: \(error.message)")
        case .closed: FirestoreError(.failedPrecondition, "The persistent cache at \(path) is closed")
        default: FirestoreError(.internal, "The persistent cache at \(path) failed: \(error.message)")
        }
    }
}
