import DocumentModel
import DocumentStore
import Testing

@Suite("Reads at a read time, batch reads and retention")
struct ReadTimeTests {
    @Test("a read at a past read time sees the document as it was then")
    func pastReads() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("users/u")
        let v1 = try fixture.store.commit([.create(doc, fields: ["v": 1])]).commitTime
        fixture.clock.advance(bySeconds: 10)
        let v2 = try fixture.store.commit([.set(doc, fields: ["v": 2])]).commitTime
        fixture.clock.advance(bySeconds: 10)
        let deleted = try fixture.store.commit([.delete(doc)]).commitTime
        fixture.clock.advance(bySeconds: 10)
        let v3 = try fixture.store.commit([.set(doc, fields: ["v": 3])]).commitTime
        fixture.clock.advance(bySeconds: 10)

        #expect(try fixture.store.document(doc, readTime: Timestamp(microsecondsSinceEpoch: v1.microsecondsSinceEpoch - 1)) == nil)
        #expect(try fixture.store.document(doc, readTime: v1)?.fields == ["v": 1])
        #expect(try fixture.store.document(doc, readTime: Timestamp(microsecondsSinceEpoch: v2.microsecondsSinceEpoch - 1))?.fields == ["v": 1])
        #expect(try fixture.store.document(doc, readTime: v2)?.fields == ["v": 2])
        #expect(try fixture.store.document(doc, readTime: deleted) == nil)
        let recreated = try #require(try fixture.store.document(doc, readTime: v3))
        #expect(recreated.fields == ["v": 3])
        #expect(recreated.createTime == v3, "a re-created document has a new create time")
        #expect(try fixture.store.document(doc, readTime: v2)?.createTime == v1)
    }

    @Test("read times older than the retention window or in the future are refused")
    func readTimeBounds() throws {
        let fixture = try StoreFixture(retentionSeconds: 60)
        let doc = try fixture.name("users/u")
        try fixture.store.commit([.create(doc, fields: ["v": 1])])
        fixture.clock.advance(bySeconds: 120)
        let old = #expect(throws: FirestoreError.self) {
            try fixture.store.document(doc, readTime: StoreFixture.start)
        }
        #expect(old?.code == .failedPrecondition)
        let future = #expect(throws: FirestoreError.self) {
            try fixture.store.document(doc, readTime: Timestamp(microsecondsSinceEpoch: StoreFixture.start.microsecondsSinceEpoch + 3_600_000_000))
        }
        #expect(future?.code == .invalidArgument)
    }

    @Test("several documents are read at one consistent read time")
    func batchRead() throws {
        let fixture = try StoreFixture()
        let a = try fixture.name("acc/a")
        let b = try fixture.name("acc/b")
        let first = try fixture.store.commit([.set(a, fields: ["n": 100]), .set(b, fields: ["n": 0])]).commitTime
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([.set(a, fields: ["n": 50]), .set(b, fields: ["n": 50])])
        let then = try fixture.store.documents([a, b, try fixture.name("acc/none")], readTime: first)
        #expect(then.readTime == first)
        #expect(then.documents.map { $0?.fields["n"] } == [100, 0, nil])
        let now = try fixture.store.documents([a, b])
        #expect(now.documents.map { $0?.fields["n"] } == [50, 50])
        #expect(now.readTime == fixture.store.lastCommitTime)
    }

    @Test("garbage collection removes versions superseded before the window, never the newest")
    func garbageCollection() throws {
        let fixture = try StoreFixture(retentionSeconds: 60)
        let kept = try fixture.name("gc/kept")
        let gone = try fixture.name("gc/gone")
        let first = try fixture.store.commit([.set(kept, fields: ["v": 1]), .set(gone, fields: ["v": 1])]).commitTime
        fixture.clock.advance(bySeconds: 10)
        try fixture.store.commit([.set(kept, fields: ["v": 2]), .delete(gone)])
        #expect(try fixture.store.collectGarbage() == 0, "nothing has expired yet")
        #expect(try fixture.store.document(kept, readTime: first)?.fields == ["v": 1])
        fixture.clock.advance(bySeconds: 65)
        #expect(try fixture.store.collectGarbage() == 3, "v1 of both documents and the tombstone")
        #expect(try fixture.store.collectGarbage() == 0)
        #expect(try fixture.store.document(kept)?.fields == ["v": 2])
        #expect(try fixture.store.document(gone) == nil)
        try fixture.reopen(retentionSeconds: 60)
        #expect(try fixture.store.document(kept)?.fields == ["v": 2])
    }
}
