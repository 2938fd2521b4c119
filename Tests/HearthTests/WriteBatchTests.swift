import Hearth
import Testing

@Suite("WriteBatch on both backends")
struct WriteBatchTests {
    @Test(arguments: BackendKind.allCases)
    func commitsAtomically(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let db = test.db
            try await db.document("users/bob").setData(["name": "Bob"])
            let batch = db.batch()
            batch.setData(["name": "Alice"], forDocument: db.document("users/alice"))
                .setData(["age": 3], forDocument: db.document("users/carol"), merge: true)
                .setData(["a": 1, "b": 2], forDocument: db.document("users/dave"), mergeFields: ["a"])
                .updateData(["visits": FieldValue.increment(Int64(1))], forDocument: db.document("users/bob"))
                .deleteDocument(db.document("users/erin"))
            try await batch.commit()
            #expect(try await db.document("users/alice").getDocument().get("name") as? String == "Alice")
            #expect(try await db.document("users/carol").getDocument().get("age") as? Int == 3)
            #expect(try await db.document("users/dave").getDocument().data()?.keys.sorted() == ["a"])
            #expect(try await db.document("users/bob").getDocument().get("visits") as? Int == 1)
            await expectError(.failedPrecondition) { try await batch.commit() }
        }
    }

    @Test(arguments: BackendKind.allCases)
    func failingWriteWritesNothing(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let db = test.db
            let failing = db.batch()
            failing.setData(["name": "Alice"], forDocument: db.document("users/alice"))
            failing.updateData(["n": 1], forDocument: db.document("users/missing"))
            await expectError(.notFound) { try await failing.commit() }
            let afterFailure = try await db.document("users/alice").getDocument()
            #expect(!afterFailure.exists)

            let invalid = db.batch()
            invalid.setData(["name": "Alice"], forDocument: db.document("users/alice"))
            invalid.setData(["x": FieldValue.delete()], forDocument: db.document("users/bob"))
            await expectError(.invalidArgument) { try await invalid.commit() }
            let afterInvalid = try await db.document("users/alice").getDocument()
            #expect(!afterInvalid.exists)
        }
    }
}
