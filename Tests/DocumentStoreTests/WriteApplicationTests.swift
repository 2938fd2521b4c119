import DocumentModel
import QueryEngine
import Testing

/// `WriteApplication` on its own, as the client's local view applies pending writes (the store's
/// commits exercise it through `CommitTests` and `TransformTests`).
@Suite("Write application over documents in memory")
struct WriteApplicationTests {
    let database = try! DatabaseID(project: "p", database: "(default)")
    let earlier = Timestamp(microsecondsSinceEpoch: 1_000_000)
    let now = Timestamp(microsecondsSinceEpoch: 2_000_000)

    func existing() throws -> Document {
        Document(
            name: try DocumentName(database, "users/alice"), fields: ["a": .integer(1), "b": .string("x")],
            createTime: earlier, updateTime: earlier)
    }

    @Test("a set replaces the fields and keeps the create time; a delete gives nil")
    func setAndDelete() throws {
        let old = try existing()
        let (document, results) = try WriteApplication.apply(.set(old.name, fields: ["c": .boolean(true)]), to: old, commitTime: now)
        #expect(document?.fields == ["c": .boolean(true)])
        #expect(document?.createTime == earlier)
        #expect(document?.updateTime == now)
        #expect(results.isEmpty)
        let (deleted, _) = try WriteApplication.apply(.delete(old.name), to: old, commitTime: now)
        #expect(deleted == nil)
        let (created, _) = try WriteApplication.apply(.set(old.name, fields: [:]), to: nil, commitTime: now)
        #expect(created?.createTime == now)
    }

    @Test("an update mask sets listed fields and removes listed missing ones; transforms report results")
    func maskAndTransforms() throws {
        let old = try existing()
        let write = Write(
            name: old.name, operation: .update(fields: ["a": .integer(5)], mask: [try FieldPath("a"), try FieldPath("b")]),
            transforms: [FieldTransform(try FieldPath("n"), .increment(.integer(2))), FieldTransform(try FieldPath("t"), .serverTimestamp)])
        let (document, results) = try WriteApplication.apply(write, to: old, commitTime: now)
        #expect(document?.fields.count == 3)
        #expect(document?.fields["a"] == .integer(5))
        #expect(document?.fields["n"] == .integer(2))
        #expect(document?.fields["t"] == .timestamp(now))
        #expect(results == [.integer(2), .timestamp(now)])
    }

    @Test("preconditions: exists, not exists, update time")
    func preconditions() throws {
        let old = try existing()
        try WriteApplication.check(.exists(true), against: old, name: old.name)
        try WriteApplication.check(.exists(false), against: nil, name: old.name)
        try WriteApplication.check(.updateTime(earlier), against: old, name: old.name)
        #expect(throws: FirestoreError.self) { try WriteApplication.check(.exists(true), against: nil, name: old.name) }
        #expect(throws: FirestoreError.self) { try WriteApplication.check(.exists(false), against: old, name: old.name) }
        do {
            try WriteApplication.check(.updateTime(Timestamp(microsecondsSinceEpoch: 500_000)), against: old, name: old.name)
            Issue.record("a stale update time passed")
        } catch let error as FirestoreError {
            #expect(error.code == .failedPrecondition)
        }
    }
}
