import DocumentModel
import DocumentStore
import Foundation
import Hearth
import HearthEmbedded
import Testing

/// A value with every kind of field `Firestore.Encoder` handles.
private struct Everything: Encodable {
    var text = "t"
    var whole = 7
    var real = 2.5
    var flag = true
    var small: Int8 = -3
    var unsigned: UInt64 = 42
    var single: Float = 1.5
    var decimal: Decimal = 3.25
    var link = URL(string: "https://example.com/a")!
    var time = try! Timestamp(seconds: 10, nanoseconds: 20)
    var date = Date(timeIntervalSince1970: 30)
    var bytes = Data([1, 2])
    var point = try! GeoPoint(latitude: 5, longitude: 6)
    var addresses = [Address(city: "Paris", zip: "75001"), Address(city: "Rome", zip: nil)]
    var grid = ["row": [1, 2]]
    var nothing: [String: Int] = [:]
    var missing: String? = nil
    @ExplicitNull var cleared: String?
    @ServerTimestamp var createdAt: Timestamp?
    var reference: DocumentReference
}

@Suite("setData(from:): the encoded fields written directly, and the server's timestamp returned")
struct EncodedWriteTests {
    /// The stored fields of `path`, read from the store.
    private static func storedFields(_ test: TestDatabase, _ path: String) throws -> MapValue? {
        try test.store.document(DocumentName(TestDatabase.database, ResourcePath(path)))?.fields
    }

    @Test(arguments: BackendKind.allCases)
    func writesWhatSetDataOfTheEncodedFieldsWrites(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let value = Everything(reference: test.db.document("users/alice"))
            try await test.db.document("things/direct").setData(from: value)
            try await test.db.document("things/dictionary").setData(try Firestore.Encoder().encode(value))
            var direct = try #require(try EncodedWriteTests.storedFields(test, "things/direct"))
            var dictionary = try #require(try EncodedWriteTests.storedFields(test, "things/dictionary"))
            guard case .timestamp = direct["createdAt"], case .timestamp = dictionary["createdAt"] else {
                Issue.record("createdAt is not a server timestamp: \(direct), \(dictionary)")
                return
            }
            direct["createdAt"] = nil
            dictionary["createdAt"] = nil
            #expect(direct == dictionary)
            #expect(direct["cleared"] == .null && direct["missing"] == nil && direct["nothing"] == .map(MapValue()))
            #expect(direct["unsigned"] == .integer(42) && direct["link"] == .string("https://example.com/a"))
        }
    }

    @Test func refusesWhatSetDataOfTheEncodedFieldsRefuses() async throws {
        try await TestDatabase.with(.embedded) { test in
            let other = try Firestore.embedded(store: test.store, projectID: "demo-other")
            let ref = test.db.document("things/refused")
            func expectSameRefusal<T: Encodable>(_ value: T, _ comment: Comment) async throws {
                func failure(_ body: () async throws -> Void) async -> String? {
                    do { try await body() } catch { return "\(error)" }
                    return nil
                }
                let direct = await failure { try await ref.setData(from: value) }
                let dictionary = await failure { try await ref.setData(try Firestore.Encoder().encode(value)) }
                #expect(direct != nil && direct == dictionary, comment)
                #expect(try await !ref.getDocument().exists, comment)
            }
            try await expectSameRefusal(["a": [[1]]], "nested arrays")
            try await expectSameRefusal(["a": [FieldValue.serverTimestamp()]], "a sentinel in an array")
            try await expectSameRefusal(["a": FieldValue.delete()], "delete() in a set")
            try await expectSameRefusal(["a": ["": 1]], "an empty field name")
            try await expectSameRefusal(["a": UInt64.max], "an integer over Int64.max")
            try await expectSameRefusal(["a": other.document("users/x")], "a reference to another database")
            try await expectSameRefusal(["a": FieldValue.arrayUnion([FieldValue.delete()])], "a sentinel in a transform")
        }
    }

    @Test(arguments: BackendKind.allCases)
    func returnsTheServerTimestampAsStored(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("posts/p")
            let time = try await ref.setDataReturningServerTimestamp(from: Post(author: ref))
            let snapshot = try await ref.getDocument()
            #expect(snapshot.get("postedAt") as? Timestamp == time)
            #expect(try snapshot.data(as: Post.self).postedAt == time.dateValue)

            let address = test.db.document("addresses/a")
            let commitTime = try await address.setDataReturningServerTimestamp(from: Address(city: "Rome"))
            #expect(try await address.getDocument().updateTime == commitTime, "without server timestamps: the commit time")

            let refused = test.db.document("posts/q")
            await #expect(throws: FirestoreError.self) { try await refused.setDataReturningServerTimestamp(from: ["a": [[1]]]) }
            #expect(try await !refused.getDocument().exists)
        }
    }
}
