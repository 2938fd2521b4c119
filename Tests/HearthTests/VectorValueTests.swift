import Foundation
import Hearth
import Testing

@Suite("VectorValue on both backends")
struct VectorValueTests {
    @Test(arguments: BackendKind.allCases)
    func storedReadAndOrdered(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let items = test.db.collection("items")
            try await items.document("long").setData(["e": FieldValue.vector([1, 2, 3])])
            try await items.document("short").setData(["e": VectorValue([9])])
            try await items.document("list").setData(["e": [1, 2]])
            try await items.document("map").setData(["e": ["value": [1.0]]])
            let read = try await items.document("long").getDocument().get("e") as? VectorValue
            #expect(read == VectorValue([1, 2, 3]))
            let ordered = try await items.order(by: "e").getDocuments().documents.map(\.documentID)
            #expect(ordered == ["list", "short", "long", "map"])
            let equal = try await items.whereField("e", isEqualTo: VectorValue([9])).getDocuments()
            #expect(equal.documents.map(\.documentID) == ["short"])
            await #expect(throws: FirestoreError.self) {
                try await items.document("bad").setData(["e": VectorValue([])])
            }
        }
    }
}
