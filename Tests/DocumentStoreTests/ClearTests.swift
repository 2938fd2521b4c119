import DocumentModel
import DocumentStore
import Testing

/// `clear(_:below:)`, the emulator's clear-data endpoint.
@Suite struct ClearTests {
    @Test func clearIsACommitOfTombstones() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let other = try DatabaseID(project: "demo-test", database: "other")
        let written = try store.commit(
            try ["a/1", "a/1/sub/x", "a/2", "b/1"].map { .set(try fixture.name($0), fields: ["n": 1]) })
        try store.commit([.set(try DocumentName(other, "a/1"), fields: ["n": 2])])
        fixture.clock.advance(bySeconds: 1)

        let cleared = try #require(try store.clear(fixture.database, below: try ResourcePath("a/1")))
        #expect(try store.document(fixture.name("a/1")) == nil)
        #expect(try store.document(fixture.name("a/1/sub/x")) == nil)
        #expect(try store.document(fixture.name("a/2")) != nil)
        #expect(try store.document(fixture.name("a/1"), readTime: written.commitTime) != nil)
        #expect(store.lastCommitTime == cleared)

        try store.clear(fixture.database)
        #expect(try store.document(fixture.name("b/1")) == nil)
        #expect(try store.document(DocumentName(other, "a/1")) != nil, "other databases keep their data")
        #expect(try store.clear(fixture.database) == nil, "nothing left to clear writes nothing")
    }
}
