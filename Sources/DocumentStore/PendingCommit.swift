import DocumentModel
import LevelDB

/// The documents a commit has touched so far: their state before the commit and after the
/// writes applied to them, so later writes to the same document see earlier ones.
struct PendingCommit {
    private struct Entry {
        let before: StoredVersion?
        var after: StoredVersion?
    }

    let commitTime: Timestamp
    private var entries: [DocumentName: Entry] = [:]
    private var order: [DocumentName] = []

    init(commitTime: Timestamp) {
        self.commitTime = commitTime
    }

    /// The document's current state within the commit, read from the store on first touch.
    mutating func state(
        of name: DocumentName, readingWith read: (DocumentName) throws -> StoredVersion?
    ) throws -> StoredVersion? {
        if let entry = entries[name] { return entry.after }
        let stored = try read(name)
        entries[name] = Entry(before: stored, after: stored)
        order.append(name)
        return stored
    }

    /// Records the document's state after a write.
    mutating func record(_ state: StoredVersion?, for name: DocumentName) {
        entries[name]?.after = state
    }

    /// Whether the commit changes the document, compared with its state before the commit.
    private func changes(_ entry: Entry) -> Bool {
        switch (entry.before?.document, entry.after?.document) {
        case (nil, nil): false
        case (let before?, let after?):
            before.createTime != after.createTime || !Value.map(before.fields).isIdentical(to: .map(after.fields))
        default: true
        }
    }

    /// The update time to report for a write to `name`: the commit time if the commit changed a
    /// live document, its previous update time if it left it unchanged, `nil` if deleted.
    func updateTime(of name: DocumentName) -> Timestamp? {
        guard let entry = entries[name], let after = entry.after?.document else { return nil }
        return changes(entry) ? commitTime : after.updateTime
    }

    /// The write batch for every changed document: its new version, and expiry-queue entries
    /// for the version it supersedes and for a tombstone it writes.
    func makeBatch(version: Int64) throws -> WriteBatch {
        let batch = WriteBatch()
        for name in order {
            guard let entry = entries[name], changes(entry) else { continue }
            let key = StorageKeys.version(name, version)
            if let before = entry.before?.document {
                batch.put(
                    StorageKeys.expiry(
                        at: version, documentKey: StorageKeys.version(name, before.updateTime.microsecondsSinceEpoch)),
                    [])
            }
            switch entry.after {
            case .live(let document)?:
                batch.put(key, DocumentCodec.encode(document))
            case .tombstone?, nil:
                batch.put(key, StoredVersion.tombstoneBytes)
                batch.put(StorageKeys.expiry(at: version, documentKey: key), [])
            }
        }
        return batch
    }
}
