import DocumentModel
import LevelDB

/// The documents a commit has touched so far: their state before the commit and after the
/// writes applied to them, so later writes to the same document see earlier ones.
struct PendingCommit {
    private struct Entry {
        let name: DocumentName
        /// The prefix of every version's key (`StorageKeys.versionsPrefix(name)`).
        let keyPrefix: [UInt8]
        /// Where the document's encoded path starts in `keyPrefix` (after the database).
        let pathOffset: Int
        let before: StoredVersion?
        var after: StoredVersion?
    }

    /// A document's place in the commit, returned by `touch` and valid for this commit only.
    struct Position: Hashable {
        fileprivate let index: Int
    }

    let commitTime: Timestamp
    /// The touched documents, in the order of their first write.
    private var entries: [Entry] = []
    /// Where each touched document is in `entries`; used once the commit touches more than
    /// `linearSearchLimit` documents (small commits compare names instead of hashing them).
    private var positions: [DocumentName: Int] = [:]
    private static let linearSearchLimit = 8

    /// A commit at `commitTime` of `writeCount` writes (a capacity hint).
    init(commitTime: Timestamp, writeCount: Int = 0) {
        self.commitTime = commitTime
        entries.reserveCapacity(writeCount)
        if writeCount > PendingCommit.linearSearchLimit { positions.reserveCapacity(writeCount) }
    }

    /// The document's place in the commit; on its first touch its current state is read from
    /// the store with `read`, given the name and the prefix of its versions' keys.
    mutating func touch(
        _ name: DocumentName, readingWith read: (DocumentName, [UInt8]) throws -> StoredVersion?
    ) throws -> Position {
        if entries.count <= PendingCommit.linearSearchLimit {
            if let index = entries.firstIndex(where: { $0.name == name }) { return Position(index: index) }
            try appendEntry(name, readingWith: read)
            if entries.count > PendingCommit.linearSearchLimit {
                for (index, entry) in entries.enumerated() { positions[entry.name] = index }
            }
            return Position(index: entries.count - 1)
        }
        // One hash of the name: find its slot, or claim a new one. If the read below throws,
        // the whole commit fails and this pending commit is discarded.
        let next = entries.count
        let index = { (slot: inout Int) -> Int in
            if slot < 0 { slot = next }
            return slot
        }(&positions[name, default: -1])
        if index < next { return Position(index: index) }
        try appendEntry(name, readingWith: read)
        return Position(index: index)
    }

    private mutating func appendEntry(
        _ name: DocumentName, readingWith read: (DocumentName, [UInt8]) throws -> StoredVersion?
    ) throws {
        var prefix = StorageKeys.databasePrefix(name.databaseID)
        let pathOffset = prefix.count
        prefix.appendPath(name.path)
        let keyPrefix = prefix.bytes
        let stored = try read(name, keyPrefix)
        entries.append(Entry(name: name, keyPrefix: keyPrefix, pathOffset: pathOffset, before: stored, after: stored))
    }

    /// The document's current state within the commit.
    func state(at position: Position) -> StoredVersion? {
        entries[position.index].after
    }

    /// Records the document's state after a write.
    mutating func record(_ state: StoredVersion?, at position: Position) {
        entries[position.index].after = state
    }

    /// Whether the commit changes the document, compared with its state before the commit
    /// (the documents are looked at only when both versions are live).
    private static func changes(_ before: StoredVersion?, _ after: StoredVersion?) -> Bool {
        switch (before, after) {
        case (.live(let before)?, .live(let after)?):
            before.createTime != after.createTime || !Value.map(before.fields).isIdentical(to: .map(after.fields))
        case (.live?, _), (_, .live?): true
        default: false
        }
    }

    private func changes(_ entry: Entry) -> Bool {
        PendingCommit.changes(entry.before, entry.after)
    }

    /// The update time to report for a write to `name`: the commit time if the commit changed a
    /// live document, its previous update time if it left it unchanged, `nil` if deleted.
    func updateTime(at position: Position) -> Timestamp? {
        let index = position.index
        guard case .live = entries[index].after else { return nil }
        guard case .live(let before)? = entries[index].before else { return commitTime }
        return PendingCommit.changes(entries[index].before, entries[index].after) ? commitTime : before.updateTime
    }

    /// Every touched document's state before the commit and after it (`nil` inside: missing),
    /// for security rules.
    func documentStates() -> (before: [DocumentName: Document?], after: [DocumentName: Document?]) {
        var before: [DocumentName: Document?] = [:]
        var after: [DocumentName: Document?] = [:]
        for entry in entries {
            before[entry.name] = .some(entry.before?.document)
            after[entry.name] = .some(entry.after?.document)
        }
        return (before, after)
    }

    /// What the commit changed, for the change feed: each changed document before and after.
    func changeRecords() -> [DocumentChangeRecord] {
        entries.compactMap { entry in
            changes(entry)
                ? DocumentChangeRecord(name: entry.name, before: entry.before?.document, after: entry.after?.document)
                : nil
        }
    }

    /// The documents-table key prefixes of the documents this commit gives their first stored
    /// version (for the presence filter).
    func createdDocumentKeyPrefixes() -> some Sequence<[UInt8]> {
        entries.lazy.filter { entry in
            guard entry.before == nil, case .live = entry.after else { return false }
            return true
        }.map(\.keyPrefix)
    }

    /// Fills `batch` (empty) with the commit's writes: for every changed document its new
    /// version, expiry-queue entries for the version it supersedes and for a tombstone it
    /// writes, and its index changes (the entries of the replaced version out, those of the
    /// new version in). Collection groups indexed for the first time get their ids in
    /// `indexGroups`, which the caller keeps only once the batch is written. Encoded documents
    /// and index keys are built in `scratch`.
    func fill(_ batch: WriteBatch, version: Int64, indexGroups: inout IndexGroupCatalog, scratch: KeyScratch) {
        let versionSuffix = StorageKeys.descending(version)
        for entry in entries {
            guard changes(entry) else { continue }
            let name = entry.name
            let key = entry.keyPrefix + versionSuffix
            if let before = entry.before?.document {
                batch.put(
                    StorageKeys.expiry(
                        at: version, documentKey: StorageKeys.version(name, before.updateTime.microsecondsSinceEpoch)),
                    [])
            }
            switch entry.after {
            case .live(let document)?:
                scratch.truncate(to: 0)
                DocumentCodec.encode(document, into: scratch)
                key.withUnsafeBytes { key in scratch.withBytes { batch.put(key, $0) } }
            case .tombstone?, nil:
                batch.put(key, StoredVersion.tombstoneBytes)
                batch.put(StorageKeys.expiry(at: version, documentKey: key), [])
            }
            IndexEntries.update(
                batch, before: entry.before?.document, after: entry.after?.document,
                path: entry.keyPrefix[entry.pathOffset...], groups: &indexGroups, scratch: scratch)
        }
    }
}
