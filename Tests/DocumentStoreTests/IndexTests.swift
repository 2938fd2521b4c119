import DocumentModel
import DocumentStore
import LevelDB
import Testing

/// The single-field index: written with the document, only for the current version.
@Suite("Single-field index")
struct IndexTests {
    /// The index groups of a closed store, by id: `project/database/group`.
    static func groups(_ database: Database) throws -> [[UInt8]: String] {
        var groups: [[UInt8]: String] = [:]
        for (key, id) in try database.entries(withPrefix: [StorageKeys.Table.indexGroups.rawValue]) {
            var reader = OrderedKeyReader(key, offset: 1)
            groups[id] = "\(try reader.readString())/\(try reader.readString())/\(try reader.readString())"
        }
        return groups
    }

    /// The index keys of the store (which it closes), as `group|field names|kind`.
    static func entries(_ fixture: StoreFixture) throws -> [String] {
        let folder = fixture.folder
        try fixture.store.close()
        let database = try Database(path: folder)
        defer { try? database.close() }
        let groups = try groups(database)
        return try database.entries(withPrefix: [StorageKeys.Table.index.rawValue]).map { key, _ in
            // `04`, the group id (4 bytes), the field path, the kind.
            let group = try #require(groups[Array(key[1..<5])]).split(separator: "/").last.map(String.init) ?? ""
            var reader = OrderedKeyReader(key, offset: 5)
            let field = try reader.readPath()
            let kind = try reader.readByte()
            return "\(group)|\(field)|\(kind)"
        }
    }

    @Test("index: every field, map and map value, and every distinct array element gets an entry")
    func entriesOfADocument() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["n": 1, "m": ["k": "v", "inner": ["z": true]], "tags": ["x", "y", "x"]]])
        #expect(try Self.entries(fixture) == [
            "c|m|1", "c|m/inner|1", "c|m/inner/z|1", "c|m/k|1", "c|n|1", "c|tags|1", "c|tags|2", "c|tags|2",
        ])
    }

    @Test("index: an update replaces the old version's entries; a delete removes them all")
    func maintenance() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("c/a")
        try fixture.store.commit([.set(doc, fields: ["a": 1, "b": 2])])
        try fixture.store.commit([.update(doc, fields: ["b": 3, "c": 4], mask: [try FieldPath("b"), try FieldPath("c"), try FieldPath("a")])])
        #expect(try fixture.ids(fixture.query("c", filter: filter("b", .equal, 2))).isEmpty)
        #expect(try fixture.ids(fixture.query("c", filter: filter("b", .equal, 3))) == ["a"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("a", .equal, 1))).isEmpty)
        try fixture.store.commit([.delete(doc)])
        #expect(try Self.entries(fixture).isEmpty)
    }

    @Test("index: a commit that changes nothing leaves the index as it is")
    func unchangedWrite() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1]])
        try fixture.put(["c/a": ["x": 1]])
        #expect(try fixture.ids(fixture.query("c", filter: filter("x", .equal, 1))) == ["a"])
        #expect(try Self.entries(fixture).count == 1)
    }

    @Test("index: a store of format 1 (no index) gets its index built when opened")
    func rebuildFromFormatOne() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1], "c/b": ["x": 2], "c/b/s/x": ["x": 1]])
        try fixture.store.commit([.set(try fixture.name("c/a"), fields: ["x": 5]), .delete(try fixture.name("c/b"))])
        let folder = fixture.folder
        try fixture.store.close()
        // Make it a format-1 store: no index entries, format 1.
        let raw = try Database(path: folder)
        for table in [StorageKeys.Table.index, .indexGroups] {
            for (key, _) in try raw.entries(withPrefix: [table.rawValue]) { try raw.delete(key) }
        }
        var format = OrderedKey()
        format.appendUInt64(1)
        try raw.put(StorageKeys.metadata(.formatVersion), format.bytes)
        try raw.close()
        try fixture.reopen()
        #expect(try fixture.ids(fixture.query("c", orderBy: [try asc("x")])) == ["a"])
        #expect(try fixture.paths(fixture.query("s", group: true, filter: filter("x", .equal, 1))) == ["c/b/s/x"])
    }

    @Test("index: a store of format 2 (keys naming project, database and group) gets its index rebuilt with group ids")
    func rebuildFromFormatTwo() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1, "tags": ["t"]], "c/b": ["x": 2], "c/b/s/x": ["x": 1]])
        let folder = fixture.folder
        try fixture.store.close()
        // Make it a format-2 store: its index keys spell out project, database and group, and
        // there is no index-groups table.
        let raw = try Database(path: folder)
        let groups = try Self.groups(raw)
        for table in [StorageKeys.Table.index, .indexGroups] {
            for (key, _) in try raw.entries(withPrefix: [table.rawValue]) {
                try raw.delete(key)
                guard table == .index, let names = groups[Array(key[1..<5])]?.split(separator: "/") else { continue }
                var old = OrderedKey()
                old.appendByte(StorageKeys.Table.index.rawValue)
                for name in names { old.appendString(String(name)) }
                old.appendEncoded(Array(key[5...]))
                try raw.put(old.bytes, [])
            }
        }
        #expect(try raw.entries(withPrefix: [StorageKeys.Table.index.rawValue]).map { $0.0 }.count == 5)
        var format = OrderedKey()
        format.appendUInt64(2)
        try raw.put(StorageKeys.metadata(.formatVersion), format.bytes)
        try raw.close()
        try fixture.reopen()
        #expect(try fixture.ids(fixture.query("c", orderBy: [try asc("x")])) == ["a", "b"])
        #expect(try fixture.ids(fixture.query("c", filter: filter("tags", .arrayContains, "t"))) == ["a"])
        #expect(try fixture.paths(fixture.query("s", group: true, filter: filter("x", .equal, 1))) == ["c/b/s/x"])
        // The old keys are gone: every entry is under a group id of the new table.
        #expect(try Self.entries(fixture) == [
            "c|tags|1", "c|tags|2", "c|x|1", "c|x|1", "s|x|1",
        ])
    }

    @Test("index: geo points keep the sign of a zero coordinate (format 6); a format-5 index is rebuilt on open")
    func geoPointSignedZeros() throws {
        let fixture = try StoreFixture()
        let negative = Value.geoPoint(try GeoPoint(latitude: -0.0, longitude: 1))
        let positive = Value.geoPoint(try GeoPoint(latitude: 0.0, longitude: 1))
        try fixture.put(["g/neg": ["g": negative], "g/pos": ["g": positive],
                         "g/lngneg": ["g": .geoPoint(try GeoPoint(latitude: 1, longitude: -0.0))],
                         "g/lngpos": ["g": .geoPoint(try GeoPoint(latitude: 1, longitude: 0.0))]])
        func check() throws {
            // Measured on Google's emulator: -0.0 orders before 0.0 inside geo points, and
            // equality, `in`, ranges and cursors tell them apart.
            #expect(try fixture.ids(fixture.query("g", orderBy: [try asc("g")])) == ["neg", "pos", "lngneg", "lngpos"])
            #expect(try fixture.ids(fixture.query("g", filter: filter("g", .equal, negative))) == ["neg"])
            #expect(try fixture.ids(fixture.query("g", filter: filter("g", .in, [positive]))) == ["pos"])
            #expect(try fixture.ids(fixture.query("g", filter: filter("g", .greaterThan, negative))) == ["pos", "lngneg", "lngpos"])
            #expect(try fixture.ids(fixture.query("g", filter: filter("g", .notEqual, positive))) == ["neg", "lngneg", "lngpos"])
            #expect(try fixture.ids(fixture.query(
                "g", orderBy: [try asc("g")], startAt: QueryCursor(values: [negative], before: false))) == ["pos", "lngneg", "lngpos"])
        }
        try check()
        // Make it a format-5 store, whose geo keys wrote -0.0 as 0.0.
        let folder = fixture.folder
        try fixture.store.close()
        let raw = try Database(path: folder)
        let negativeZero: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let positiveZero: [UInt8] = [0x80, 0, 0, 0, 0, 0, 0, 0]
        for (key, value) in try raw.entries(withPrefix: [StorageKeys.Table.index.rawValue]) {
            guard let start = (0...(key.count - 8)).first(where: { Array(key[$0..<($0 + 8)]) == negativeZero }) else { continue }
            try raw.delete(key)
            try raw.put(Array(key[..<start]) + positiveZero + Array(key[(start + 8)...]), value)
        }
        var format = OrderedKey()
        format.appendUInt64(5)
        try raw.put(StorageKeys.metadata(.formatVersion), format.bytes)
        try raw.close()
        try fixture.reopen()
        try check()
    }

    @Test("index: a store of format 4 (an index entry per document) loses those entries when opened")
    func upgradeFromFormatFour() throws {
        let fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1], "c/b": [:], "c/b/s/x": ["x": 1]])
        let folder = fixture.folder
        try fixture.store.close()
        // Make it a format-4 store: each document also has its entry of kind 00 (an empty field
        // path and no value, then the document's path).
        let raw = try Database(path: folder)
        let groups = try Self.groups(raw)
        for (groupID, name) in groups {
            let group = String(name.split(separator: "/").last ?? "")
            let paths = group == "c" ? [["c", "a"], ["c", "b"]] : [["c", "b", "s", "x"]]
            for segments in paths {
                var key = OrderedKey()
                key.appendByte(StorageKeys.Table.index.rawValue)
                key.appendEncoded(groupID)
                key.appendEnd()
                key.appendByte(0)
                key.appendPath(try ResourcePath(segments: segments))
                try raw.put(key.bytes, [])
            }
        }
        var format = OrderedKey()
        format.appendUInt64(4)
        try raw.put(StorageKeys.metadata(.formatVersion), format.bytes)
        try raw.close()
        try fixture.reopen()
        #expect(try fixture.ids(fixture.query("c")) == ["a", "b"])
        #expect(try fixture.paths(fixture.query("s", group: true)) == ["c/b/s/x"])
        #expect(try Self.entries(fixture) == ["c|x|1", "s|x|1"])
    }

    @Test("index: collection groups of different databases and names get different ids, kept across reopening")
    func groupIDs() throws {
        let fixture = try StoreFixture()
        let other = try DatabaseID(project: "p", database: "d2")
        try fixture.put(["users/a": ["x": 1], "posts/p": ["x": 1]])
        try fixture.store.commit([.set(try DocumentName(other, "users/a"), fields: ["x": 2])])
        try fixture.reopen()
        try fixture.put(["users/b": ["x": 1], "likes/l": ["x": 1]])
        let folder = fixture.folder
        try fixture.store.close()
        let raw = try Database(path: folder)
        defer { try? raw.close() }
        let groups = try Self.groups(raw)
        #expect(groups.count == 4)
        #expect(Set(groups.keys).count == 4)
        #expect(Set(groups.values.map { $0.split(separator: "/").last.map(String.init) ?? "" }) == ["users", "posts", "likes"])
    }

    @Test("index: prefix scans of one field stop at their neighbours (other fields, groups, databases)")
    func layout() throws {
        let database = try DatabaseID(project: "p")
        let other = try DatabaseID(project: "p", database: "d2")
        let documents = try [
            Document(name: DocumentName(database, "users/a"), fields: ["age": 1, "agex": 2, "m": ["age": 3]], createTime: .min, updateTime: .min),
            Document(name: DocumentName(database, "users0/a"), fields: ["age": 1], createTime: .min, updateTime: .min),
            Document(name: DocumentName(other, "users/a"), fields: ["age": 1], createTime: .min, updateTime: .min),
        ]
        let fixture = try StoreFixture()
        for document in documents { try fixture.store.commit([.set(document.name, fields: document.fields)]) }
        let query = Query(
            database: database, parent: .root,
            structured: StructuredQuery(from: .collection("users"), orderBy: [Order(try FieldPath("age"))]))
        #expect(try fixture.store.runQuery(query).documents.map(\.name) == [documents[0].name])
    }
}
