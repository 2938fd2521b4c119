@testable import DocumentStore
import DocumentModel
import Testing

/// `databaseIDs()` and `documentCount(in:)`, behind the console's overview.
@Suite struct DocumentCensusTests {
    @Test func countsLiveDocumentsOfEachDatabase() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let other = try DatabaseID(project: "demo-test", database: "other")
        let elsewhere = try DatabaseID(project: "another")
        #expect(try store.databaseIDs().isEmpty)
        try store.commit(try ["a/1", "a/1/sub/x", "a/1/sub/x/deeper/y", "a/2", "b/1", "b/2"].map {
            .set(try fixture.name($0), fields: ["n": 1])
        })
        fixture.clock.advance(bySeconds: 1)
        // More versions of one document, a deleted one, and a parent deleted under its children.
        try store.commit([.set(try fixture.name("a/2"), fields: ["n": 2]), .delete(try fixture.name("b/2"))])
        fixture.clock.advance(bySeconds: 1)
        try store.commit([.set(try fixture.name("a/2"), fields: ["n": 3]), .delete(try fixture.name("a/1"))])
        try store.commit([.set(try DocumentName(other, "c/1"), fields: [:])])
        try store.commit([.set(try DocumentName(elsewhere, "d/1"), fields: [:])])
        try store.commit([.delete(try DocumentName(elsewhere, "d/1"))])

        #expect(try store.documentCount(in: fixture.database) == 4)
        #expect(try store.documentCount(in: other) == 1)
        #expect(try store.documentCount(in: elsewhere) == 0)
        #expect(try store.documentCount(in: DatabaseID(project: "nothing")) == 0)
        // A database with only deleted documents (kept for the retention window) is still listed.
        #expect(Set(try store.databaseIDs()) == [fixture.database, other, elsewhere])
    }
}
