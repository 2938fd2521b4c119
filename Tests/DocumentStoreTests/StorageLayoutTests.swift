import DocumentModel
import DocumentStore
import LevelDB
import Testing

@Suite("Storage layout: prefix scans stop at their neighbours")
struct StorageLayoutTests {
    @Test("a document's versions prefix excludes its subcollections and neighbours")
    func versionPrefix() throws {
        let database = try DatabaseID(project: "p")
        let doc = try DocumentName(database, "users/a")
        let prefix = StorageKeys.versionsPrefix(doc)
        let neighbours = try [
            "users/a/posts/1", "users/a0/x/y", "users/ab", "users/b", "users0/a", "user/a",
        ].map { StorageKeys.version(try DocumentName(database, $0), 5) }
        for key in neighbours { #expect(!key.starts(with: prefix)) }
        #expect(StorageKeys.version(doc, 5).starts(with: prefix))
        #expect(StorageKeys.version(doc, 6).lexicographicallyPrecedes(StorageKeys.version(doc, 5)), "newest first")
        let otherDatabase = try DocumentName(try DatabaseID(project: "p", database: "d2"), "users/a")
        let otherProject = try DocumentName(try DatabaseID(project: "p2"), "users/a")
        #expect(!StorageKeys.version(otherDatabase, 5).starts(with: prefix))
        #expect(!StorageKeys.version(otherProject, 5).starts(with: prefix))
        #expect(try StorageKeys.decodeVersionKey(StorageKeys.version(doc, 5)) == (doc, 5))
    }

    @Test("listing a collection returns its documents only, skipping subcollections and neighbours")
    func listing() throws {
        let fixture = try StoreFixture()
        let paths = [
            "users/a", "users/a/posts/1", "users/b", "users0/x", "user/y", "users/c", "other/z",
            "users/a/posts/1/comments/c",
        ]
        try fixture.store.commit(try paths.map { .set(try fixture.name($0), fields: ["p": .string($0)]) })
        try fixture.store.commit([.set(try fixture.name("users/b"), fields: ["p": "b2"])])
        try fixture.store.commit([.delete(try fixture.name("users/c"))])
        try fixture.store.commit([.set(try fixture.name("users/only-sub/posts/p"), fields: [:])])
        let named = try DatabaseID(project: "demo-test", database: "second")
        try fixture.store.commit([.set(try DocumentName(named, "users/zz"), fields: [:])])

        let users = try fixture.store.listDocuments(in: try ResourcePath("users"), of: fixture.database)
        #expect(users.map(\.name.path.description) == ["users/a", "users/b"])
        #expect(users[1].fields == ["p": "b2"])
        let posts = try fixture.store.listDocuments(in: try ResourcePath("users/a/posts"), of: fixture.database)
        #expect(posts.map(\.name.path.description) == ["users/a/posts/1"])
        let page = try fixture.store.listDocuments(
            in: try ResourcePath("users"), of: fixture.database, startAfter: try fixture.name("users/a"), limit: 1)
        #expect(page.map(\.name.path.description) == ["users/b"])
        #expect(throws: FirestoreError.self) {
            try fixture.store.listDocuments(in: try ResourcePath("users/a"), of: fixture.database)
        }
    }

    @Test("a store written in a newer format is refused with a clear message")
    func newerFormat() throws {
        let fixture = try StoreFixture()
        let folder = fixture.folder
        try fixture.store.close()
        let raw = try Database(path: folder)
        var format = OrderedKey()
        format.appendUInt64(DocumentStore.formatVersion + 1)
        try raw.put(StorageKeys.metadata(.formatVersion), format.bytes)
        try raw.close()
        let error = #expect(throws: FirestoreError.self) { try DocumentStore(path: folder) }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("format \(DocumentStore.formatVersion + 1)") == true)
        #expect(error?.message.contains("format \(DocumentStore.formatVersion) and older") == true)
    }
}
