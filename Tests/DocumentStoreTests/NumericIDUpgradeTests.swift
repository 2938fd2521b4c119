import DocumentModel
import DocumentStore
import LevelDB
import Testing

/// Opening a folder of format 3, whose keys spelled numeric document ids as strings (sorting by
/// their bytes), moves its document and expiry keys to the format-4 encoding and rebuilds the
/// index, losing nothing; an upgrade interrupted halfway finishes on the next open.
@Suite("Upgrading format 3 (numeric ids as strings) to format 4")
struct NumericIDUpgradeTests {
    /// A path as format 3 encoded it: every id a string component, then the end marker.
    static func formatThreePath(_ path: ResourcePath) -> [UInt8] {
        var key = OrderedKey()
        for segment in path.segments { key.appendString(segment) }
        key.appendEnd()
        return key.bytes
    }

    /// The format-3 documents-table key of a version.
    static func formatThreeVersionKey(_ name: DocumentName, _ version: Int64) -> [UInt8] {
        var key = StorageKeys.databasePrefix(name.databaseID)
        key.appendEncoded(formatThreePath(name.path))
        key.appendDescendingInt64(version)
        return key.bytes
    }

    /// Rewrites a closed store's keys as format 3 wrote them, for the documents whose path
    /// satisfies `include`: documents table, expiry queue and index; then marks it format 3.
    static func downgradeToFormatThree(_ folder: String, include: (ResourcePath) -> Bool = { _ in true }) throws {
        let raw = try Database(path: folder)
        let batch = WriteBatch()
        var pathSuffixes: [([UInt8], [UInt8])] = []
        for (key, value) in try raw.entries(withPrefix: [StorageKeys.Table.documents.rawValue]) {
            let (name, version) = try StorageKeys.decodeVersionKey(key)
            guard include(name.path) else { continue }
            batch.delete(key)
            batch.put(formatThreeVersionKey(name, version), value)
            var current = OrderedKey()
            current.appendPath(name.path)
            pathSuffixes.append((current.bytes, formatThreePath(name.path)))
        }
        for (key, value) in try raw.entries(withPrefix: StorageKeys.expiryPrefix) {
            let (name, version) = try StorageKeys.decodeVersionKey(Array(key[9...]))
            guard include(name.path) else { continue }
            batch.delete(key)
            batch.put(Array(key[..<9]) + formatThreeVersionKey(name, version), value)
        }
        for (key, value) in try raw.entries(withPrefix: [StorageKeys.Table.index.rawValue]) {
            let match = pathSuffixes.first { new, old in
                new != old && key.count > new.count && key.suffix(new.count).elementsEqual(new)
            }
            guard let match else { continue }
            let (new, old) = match
            batch.delete(key)
            batch.put(Array(key.dropLast(new.count)) + old, value)
        }
        var format = OrderedKey()
        format.appendUInt64(3)
        batch.put(StorageKeys.metadata(.formatVersion), format.bytes)
        try raw.write(batch, sync: true)
        try raw.close()
    }

    /// The stored format version, and the documents-table and expiry keys that are not in the
    /// current encoding.
    static func inspect(_ folder: String) throws -> (format: UInt64, staleKeys: Int, documentKeys: Int, expiryKeys: Int) {
        let raw = try Database(path: folder)
        defer { try? raw.close() }
        var reader = OrderedKeyReader(try #require(try raw.get(StorageKeys.metadata(.formatVersion))))
        let format = try reader.readUInt64()
        var (stale, documents, expiries) = (0, 0, 0)
        for (key, _) in try raw.entries(withPrefix: [StorageKeys.Table.documents.rawValue]) {
            let (name, version) = try StorageKeys.decodeVersionKey(key)
            if StorageKeys.version(name, version) != key { stale += 1 }
            documents += 1
        }
        for (key, _) in try raw.entries(withPrefix: StorageKeys.expiryPrefix) {
            let documentKey = Array(key[9...])
            let (name, version) = try StorageKeys.decodeVersionKey(documentKey)
            if StorageKeys.version(name, version) != documentKey { stale += 1 }
            #expect(try raw.get(documentKey) != nil, "an expiry entry names a stored version")
            expiries += 1
        }
        return (format, stale, documents, expiries)
    }

    /// A store with numeric and string ids, two versions of some (so expiry entries), and a
    /// subcollection under a numeric id; returns the time of the first commit.
    static func populate(_ fixture: StoreFixture) throws -> Timestamp {
        let first = try fixture.store.commit(
            try ["c/__id12__", "c/__id-3__", "c/a", "c/A", "c/0", "c/__id12__/s/__id5__", "c/__id12__/s/b"].map {
                .set(try fixture.name($0), fields: ["v": 1, "ref": .reference(try fixture.name($0))])
            }
        ).commitTime
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([
            .set(try fixture.name("c/__id12__"), fields: ["v": 2]), .delete(try fixture.name("c/__id-3__")),
            .set(try fixture.name("c/a"), fields: ["v": 2]),
        ])
        return first
    }

    @Test("format 3 keys of numeric ids are moved, the index rebuilt, and every version kept")
    func upgrade() throws {
        let fixture = try StoreFixture()
        let first = try Self.populate(fixture)
        let folder = fixture.folder
        try fixture.store.close()
        try Self.downgradeToFormatThree(folder)
        let before = try Self.inspect(folder)
        #expect(before.format == 3)
        #expect(before.staleKeys == 9, "6 versions under numeric ids (4 of c/__id12__ and c/__id-3__, 2 below) and 3 expiry entries")

        try fixture.reopen()
        #expect(try fixture.ids(fixture.query("c")) == ["__id12__", "0", "A", "a"])
        #expect(try fixture.store.runQuery(try fixture.query("c"), readTime: first).documents.map(\.name.documentID)
            == ["__id-3__", "__id12__", "0", "A", "a"])
        #expect(try fixture.store.document(try fixture.name("c/__id12__"), readTime: first)?.fields["v"] == 1)
        #expect(try fixture.ids(fixture.query("c", orderBy: [try asc("v"), try desc("__name__")])) == ["A", "0", "a", "__id12__"])
        #expect(try fixture.paths(fixture.query("s", group: true, orderBy: [try asc("ref")]))
            == ["c/__id12__/s/__id5__", "c/__id12__/s/b"])
        try fixture.store.close()
        let after = try Self.inspect(folder)
        #expect(after.format == DocumentStore.formatVersion)
        #expect(after.staleKeys == 0)
        #expect(after.documentKeys == before.documentKeys && after.expiryKeys == before.expiryKeys)

        // The moved expiry entries still collect the versions they name.
        try fixture.reopen(retentionSeconds: 60)
        fixture.clock.advance(bySeconds: 120)
        #expect(try fixture.store.collectGarbage() == 4, "v1 of c/__id12__, c/a and c/__id-3__, and its tombstone")
        #expect(try fixture.store.document(try fixture.name("c/__id12__"))?.fields["v"] == 2)
    }

    @Test("an upgrade interrupted with some keys moved finishes on the next open")
    func interruptedUpgrade() throws {
        let fixture = try StoreFixture()
        _ = try Self.populate(fixture)
        let folder = fixture.folder
        try fixture.store.close()
        // As if the upgrade had moved the keys below c/__id12__/s but not the others.
        try Self.downgradeToFormatThree(folder) { $0.segments.count == 2 }
        #expect(try Self.inspect(folder).staleKeys > 0)
        try fixture.reopen()
        #expect(try fixture.paths(fixture.query("", group: true))
            == ["c/__id12__", "c/__id12__/s/__id5__", "c/__id12__/s/b", "c/0", "c/A", "c/a"])
        try fixture.store.close()
        #expect(try Self.inspect(folder).staleKeys == 0)
    }
}
