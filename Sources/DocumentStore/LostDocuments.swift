import DocumentModel
import LevelDB

/// Finds documents that the single-field index names but the documents table no longer holds:
/// after a repair, entries of the index in readable blocks name documents whose own blocks
/// were lost. (The index holds entries of live documents only, so each such name was a live
/// document before the damage.)
enum LostDocuments {
    static func find(in database: Database) throws -> [DocumentName] {
        let groups = try groupDatabases(database)
        let indexPrefix = [StorageKeys.Table.index.rawValue]
        let cursor = try database.makeCursor(options: ReadOptions(fillCache: false))
        let probe = try database.makeCursor(options: ReadOptions(fillCache: false))
        var checked = Set<[UInt8]>()
        var lost: [DocumentName] = []
        cursor.seek(to: indexPrefix)
        while cursor.isValid, cursor.keyHasPrefix(indexPrefix) {
            let key = cursor.key
            cursor.next()
            guard key.count > 5, let databaseBytes = groups[Array(key[1..<5])],
                let pathBytes = try? documentPathBytes(of: key)
            else { continue }
            let versionsPrefix = [StorageKeys.Table.documents.rawValue] + databaseBytes + pathBytes
            guard checked.insert(versionsPrefix).inserted else { continue }
            probe.seek(to: versionsPrefix)
            if probe.isValid, probe.keyHasPrefix(versionsPrefix) { continue }
            try probe.checkError()
            if let (name, _) = try? StorageKeys.decodeVersionKey(versionsPrefix + StorageKeys.descending(0)) {
                lost.append(name)
            }
        }
        try cursor.checkError()
        return lost.sorted { $0.resourceName < $1.resourceName }
    }

    /// The encoded project and database (two strings) of each index group id (4 bytes).
    private static func groupDatabases(_ database: Database) throws -> [[UInt8]: [UInt8]] {
        var result: [[UInt8]: [UInt8]] = [:]
        try database.forEachEntry(withPrefix: [StorageKeys.Table.indexGroups.rawValue]) { key, value in
            var reader = OrderedKeyReader(key, offset: 1)
            _ = try reader.readString()
            _ = try reader.readString()
            result[value] = Array(key[1..<reader.offset])
        }
        return result
    }

    /// The encoded document path that ends an index key: after the group id, the field path,
    /// the entry kind and the value.
    private static func documentPathBytes(of key: [UInt8]) throws -> [UInt8] {
        var reader = OrderedKeyReader(key, offset: 5)
        _ = try reader.readPath()
        _ = try reader.readByte()
        let valueEnd = try key.withUnsafeBytes { try EncodedKeyParsing.valueEnd(in: $0, from: reader.offset) }
        return Array(key[valueEnd...])
    }
}
