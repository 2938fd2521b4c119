import DocumentModel
import QueryEngine
import Testing

/// `SnapshotDiff` on its own: the document changes between two ordered results, with the
/// indexes of Firestore's `DocumentChange`.
@Suite("Snapshot diff")
struct SnapshotDiffTests {
    let database = try! DatabaseID(project: "p", database: "(default)")

    func document(_ id: String, _ rank: Int64, version: Int64 = 1) throws -> Document {
        let time = Timestamp(microsecondsSinceEpoch: version)
        return Document(
            name: try DocumentName(database, "c/\(id)"), fields: ["rank": .integer(rank)], createTime: time,
            updateTime: time)
    }

    @Test("removals, then additions, then modifications, with indexes after earlier changes")
    func changeOrder() throws {
        let view = try QueryView(
            Query(
                database: database, parent: .root,
                structured: StructuredQuery(from: .collection("c"), orderBy: [Order(try FieldPath("rank"))])))
        let old = [try document("a", 1), try document("b", 2), try document("c", 3)]
        let new = [try document("c", 0, version: 2), try document("a", 1), try document("d", 5)]
        let changes = SnapshotDiff.changes(from: old, to: new, precedes: view.precedes)
        #expect(changes.map(\.kind) == [.removed, .added, .modified])
        #expect(changes.map(\.document.name.path.description) == ["c/b", "c/d", "c/c"])
        #expect(changes[0].oldIndex == 1 && changes[0].newIndex == -1)
        #expect(changes[1].oldIndex == -1 && changes[1].newIndex == 2)
        #expect(changes[2].oldIndex == 1 && changes[2].newIndex == 0)
    }

    @Test("identical results give no change")
    func unchanged() throws {
        let documents = [try document("a", 1), try document("b", 2)]
        #expect(SnapshotDiff.changes(from: documents, to: documents, precedes: { $0.name < $1.name }).isEmpty)
    }
}
