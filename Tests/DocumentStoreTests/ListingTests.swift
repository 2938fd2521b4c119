import DocumentModel
import DocumentStore
import Testing

/// Listing documents (with missing ones and pages) and collection ids.
@Suite("Listing documents and collection ids")
struct ListingTests {
    static func tree() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.put([
            "c/a": ["x": 1, "y": 2], "c/c": ["x": 3], "c/e": [:], "c/b/s1/d1": [:], "c/b/s2/d2": [:],
            "c/d/mid/m1/deep/d3": [:], "c/a/s1/d4": [:],
        ])
        return fixture
    }

    func list(
        _ fixture: StoreFixture, _ parent: String = "", _ collection: String = "c", pageSize: Int = 0,
        token: String? = nil, showMissing: Bool = false, mask: [FieldPath]? = nil
    ) throws -> DocumentListPage {
        try fixture.store.listDocuments(
            parent: try ResourcePath(parent), collectionID: collection, of: fixture.database, pageSize: pageSize,
            pageToken: token, showMissing: showMissing, mask: mask)
    }

    @Test("rule: listing returns the collection's documents in name order, not those of subcollections")
    func documents() throws {
        let fixture = try Self.tree()
        #expect(try list(fixture).documents.map(\.name.documentID) == ["a", "c", "e"])
    }

    @Test("rule: show_missing adds documents that do not exist but have documents below them, with no fields or times")
    func showMissing() throws {
        let fixture = try Self.tree()
        let page = try list(fixture, showMissing: true)
        #expect(page.documents.map(\.name.documentID) == ["a", "b", "c", "d", "e"])
        #expect(page.documents[1] == .missing(try fixture.name("c/b")))
        #expect(page.documents[3] == .missing(try fixture.name("c/d")))
    }

    @Test("rule: a document whose descendants were all deleted is no longer missing-listed")
    func deletedDescendants() throws {
        let fixture = try Self.tree()
        try fixture.store.commit([.delete(try fixture.name("c/d/mid/m1/deep/d3"))])
        #expect(try list(fixture, showMissing: true).documents.map(\.name.documentID) == ["a", "b", "c", "e"])
    }

    @Test("rule: pages follow each other with tokens; the last page has none")
    func pages() throws {
        let fixture = try Self.tree()
        var ids: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try list(fixture, pageSize: 2, token: token, showMissing: true)
            ids += page.documents.map(\.name.documentID)
            token = page.nextPageToken
            pages += 1
        } while token != nil && pages < 10
        #expect(ids == ["a", "b", "c", "d", "e"])
        #expect(pages == 3)
    }

    @Test("rule: a mask keeps only the chosen fields; an empty mask keeps none")
    func mask() throws {
        let fixture = try Self.tree()
        guard case .document(let masked)? = try list(fixture, mask: [try FieldPath("y")]).documents.first,
            case .document(let bare)? = try list(fixture, mask: []).documents.first
        else {
            Issue.record("expected documents")
            return
        }
        #expect(masked.fields == ["y": 2])
        #expect(bare.fields.isEmpty)
    }

    @Test("rule: an empty collection id lists the documents of every collection under the parent")
    func everyCollection() throws {
        let fixture = try Self.tree()
        #expect(try list(fixture, "c/b", "").documents.map(\.name.path.description) == ["c/b/s1/d1", "c/b/s2/d2"])
    }

    @Test("rule: invalid page sizes, tokens and parents are refused with the emulator's messages")
    func invalid() throws {
        let fixture = try Self.tree()
        #expect(throws: FirestoreError.invalidArgument("Page size must be nonnegative.")) { try list(fixture, pageSize: -1) }
        #expect(throws: FirestoreError.invalidArgument("invalid page token")) { try list(fixture, token: "garbage") }
        #expect(throws: FirestoreError.self) { try list(fixture, "c", "x") }
    }

    @Test("rule: collection ids under a document or the root are those holding documents at any depth, in order")
    func collectionIDs() throws {
        let fixture = try Self.tree()
        let ids = { (parent: String) in
            try fixture.store.listCollectionIDs(parent: try ResourcePath(parent), of: fixture.database).collectionIDs
        }
        #expect(try ids("c/b") == ["s1", "s2"])
        #expect(try ids("c/d") == ["mid"])
        #expect(try ids("c/zz").isEmpty)
        #expect(try ids("") == ["c"])
        let first = try fixture.store.listCollectionIDs(parent: try ResourcePath("c/b"), of: fixture.database, pageSize: 1)
        #expect(first.collectionIDs == ["s1"])
        let second = try fixture.store.listCollectionIDs(
            parent: try ResourcePath("c/b"), of: fixture.database, pageSize: 1, pageToken: first.nextPageToken)
        #expect(second.collectionIDs == ["s2"])
        #expect(second.nextPageToken == nil)
    }

    @Test("rule: listing at a past read time answers as it would have then")
    func pastListing() throws {
        let fixture = try Self.tree()
        let then = try #require(fixture.store.lastCommitTime)
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.delete(try fixture.name("c/a")), .set(try fixture.name("c/f"), fields: [:])])
        let page = try fixture.store.listDocuments(parent: .root, collectionID: "c", of: fixture.database, readTime: then)
        #expect(page.documents.map(\.name.documentID) == ["a", "c", "e"])
        #expect(try list(fixture, showMissing: true).documents.map(\.name.documentID) == ["a", "b", "c", "d", "e", "f"])
        #expect(try list(fixture, showMissing: true).documents.first == .missing(try fixture.name("c/a")))
    }
}
