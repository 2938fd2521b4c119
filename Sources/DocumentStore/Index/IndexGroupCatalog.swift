import DocumentModel
import LevelDB

/// A collection group of one database: what an index group id stands for.
struct IndexGroup: Hashable, Sendable {
    let database: DatabaseID
    let collectionID: String
}

/// The short ids that begin the single-field index keys of each collection group, so that an
/// index key carries 4 bytes instead of the project, database and group names (about 25
/// bytes in every entry of every document).
///
/// Ids are stored in the index-groups table (`05`, see `StorageKeys`), assigned from 1 in the
/// order groups are first indexed, and never change or get reused. The commit path keeps the
/// whole catalog in memory (under the commit lock); queries read ids from their own snapshot
/// (`SnapshotReader.indexGroupPrefix`), so an id and the entries under it always come from the
/// same moment.
///
/// - Important: Not thread-safe; used under the commit lock, or while the store opens.
struct IndexGroupCatalog {
    private var ids: [IndexGroup: UInt32] = [:]
    private var nextID: UInt32 = 1
    /// The group last asked for: commits usually write one collection after another.
    private var last: (group: IndexGroup, id: UInt32)?
    /// Groups given ids whose batch is not written yet (see `id(of:recordingIn:)`).
    private var unwritten: [IndexGroup] = []

    /// The catalog stored in `database`.
    static func load(from database: Database) throws -> IndexGroupCatalog {
        var catalog = IndexGroupCatalog()
        try database.forEachEntry(withPrefix: [StorageKeys.Table.indexGroups.rawValue]) { key, value in
            var reader = OrderedKeyReader(key, offset: 1)
            let project = try reader.readString()
            let databaseName = try reader.readString()
            let collectionID = try reader.readString()
            guard let id = StorageKeys.decodeIndexGroupID(value),
                let databaseID = try? DatabaseID(project: project, database: databaseName)
            else {
                throw FirestoreError(.dataLoss, "Corrupt index group entry for \(project)/\(databaseName)/\(collectionID)")
            }
            catalog.ids[IndexGroup(database: databaseID, collectionID: collectionID)] = id
            catalog.nextID = max(catalog.nextID, id + 1)
        }
        return catalog
    }

    /// The id of `group`. A group without one gets the next id, and its table entry is put
    /// into `batch`; once the batch is written the caller calls `keepUnwritten()`, and if it is
    /// not, `forgetUnwritten()`, before the catalog is used again.
    mutating func id(of group: IndexGroup, recordingIn batch: WriteBatch) -> UInt32 {
        if let last, last.group == group { return last.id }
        let id: UInt32
        if let known = ids[group] {
            id = known
        } else {
            id = nextID
            nextID += 1
            ids[group] = id
            unwritten.append(group)
            batch.put(StorageKeys.indexGroup(group), StorageKeys.encodeIndexGroupID(id))
        }
        last = (group, id)
        return id
    }

    /// The batch holding the new groups' entries was written: they stay.
    mutating func keepUnwritten() {
        if !unwritten.isEmpty { unwritten.removeAll() }
    }

    /// The batch holding the new groups' entries was not written: their ids are taken back.
    mutating func forgetUnwritten() {
        guard !unwritten.isEmpty else { return }
        for group in unwritten { ids[group] = nil }
        nextID -= UInt32(unwritten.count)
        unwritten.removeAll()
        last = nil
    }
}
