import Foundation
import Hearth
import HearthEmbedded
import Testing

@Suite("DocumentReference on both backends")
struct DocumentReferenceTests {
    @Test(arguments: BackendKind.allCases)
    func setGetAndDelete(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let alice = test.db.collection("users").document("alice")
            let missing = try await alice.getDocument()
            #expect(!missing.exists)
            #expect(missing.data() == nil)
            try await alice.setData(["name": "Alice", "age": 30, "score": 1.5, "active": true])
            let snapshot = try await alice.getDocument()
            #expect(snapshot.exists)
            #expect(snapshot.documentID == "alice")
            #expect(snapshot.get("name") as? String == "Alice")
            #expect(snapshot.get("age") as? Int == 30)
            #expect(snapshot.get("score") as? Double == 1.5)
            #expect(snapshot["active"] as? Bool == true)
            #expect(snapshot.metadata.isFromCache == false)
            #expect(snapshot.createTime != nil && snapshot.updateTime != nil)
            try await alice.delete()
            #expect(try await alice.getDocument().exists == false)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func everyValueTypeRoundTrips(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("types/all")
            let friend = test.db.document("users/bob")
            let time = try Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_000)
            let point = try GeoPoint(latitude: 48.85, longitude: 2.35)
            try await ref.setData([
                "null": NSNull(), "bool": false, "int": Int64(-7), "double": 2.25, "time": time, "string": "s",
                "bytes": Data([1, 2, 3]), "ref": friend, "geo": point, "array": [1, "two", 3.0],
                "map": ["nested": ["deep": "yes"]], "date": Date(timeIntervalSince1970: 1_000),
            ])
            let data = try #require(try await ref.getDocument().data())
            #expect(data["null"] is NSNull)
            #expect(data["bool"] as? Bool == false)
            #expect(data["int"] as? Int == -7)
            #expect(data["double"] as? Double == 2.25)
            #expect(data["time"] as? Timestamp == time)
            #expect(data["string"] as? String == "s")
            #expect(data["bytes"] as? Data == Data([1, 2, 3]))
            #expect((data["ref"] as? DocumentReference)?.path == "users/bob")
            #expect(data["geo"] as? GeoPoint == point)
            let array = try #require(data["array"] as? [Any])
            #expect(array.count == 3 && array[1] as? String == "two" && array[2] as? Double == 3.0)
            let map = try #require(data["map"] as? [String: Any])
            #expect((map["nested"] as? [String: Any])?["deep"] as? String == "yes")
            #expect((data["date"] as? Timestamp)?.seconds == 1_000)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func mergeAndMergeFields(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("users/alice")
            try await ref.setData(["name": "Alice", "address": ["city": "Paris", "zip": "75001"], "age": 30])
            try await ref.setData(["address": ["city": "Lyon"], "nickname": "Al"], merge: true)
            var data = try #require(try await ref.getDocument().data())
            #expect(data["name"] as? String == "Alice")
            #expect((data["address"] as? [String: Any])?["city"] as? String == "Lyon")
            #expect((data["address"] as? [String: Any])?["zip"] as? String == "75001")
            #expect(data["nickname"] as? String == "Al")

            try await ref.setData(["age": 31, "name": "ignored", "nickname": FieldValue.delete()], mergeFields: ["age", "nickname"])
            data = try #require(try await ref.getDocument().data())
            #expect(data["age"] as? Int == 31)
            #expect(data["name"] as? String == "Alice")
            #expect(data["nickname"] == nil)

            try await ref.setData(["only": 1], merge: false)
            data = try #require(try await ref.getDocument().data())
            #expect(data.keys.sorted() == ["only"])
        }
    }

    @Test(arguments: BackendKind.allCases)
    func updateDataWithPathsAndSentinels(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("counters/c")
            await expectError(.notFound) { try await ref.updateData(["n": 1]) }
            try await ref.setData([
                "n": 1, "tags": ["a", "b"], "address": ["city": "Paris", "zip": "1"], "low": 5, "high": 5, "gone": true,
            ])
            try await ref.updateData([
                "n": FieldValue.increment(Int64(2)),
                "tags": FieldValue.arrayUnion(["c", "a"]),
                "address.city": "Lyon",
                FieldPath(["odd.name"]): "dotted",
                "low": FieldValue.minimum(Int64(3)),
                "high": FieldValue.maximum(9.5),
                "gone": FieldValue.delete(),
                "at": FieldValue.serverTimestamp(),
            ])
            let snapshot = try await ref.getDocument()
            #expect(snapshot.get("n") as? Int == 3)
            #expect((snapshot.get("tags") as? [Any])?.compactMap { $0 as? String } == ["a", "b", "c"])
            #expect(snapshot.get("address.city") as? String == "Lyon")
            #expect(snapshot.get("address.zip") as? String == "1")
            #expect(snapshot.get(FieldPath(["odd.name"])) as? String == "dotted")
            #expect(snapshot.get("low") as? Int == 3)
            #expect(snapshot.get("high") as? Double == 9.5)
            #expect(snapshot.get("gone") == nil)
            #expect(snapshot.get("at") as? Timestamp == snapshot.updateTime)

            try await ref.updateData(["tags": FieldValue.arrayRemove(["a"]), "n": FieldValue.increment(0.5)])
            let after = try await ref.getDocument()
            #expect((after.get("tags") as? [Any])?.compactMap { $0 as? String } == ["b", "c"])
            #expect(after.get("n") as? Double == 3.5)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func invalidInputWritesNothing(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            await expectError(.invalidArgument) { try await test.db.document("users").setData(["a": 1]) }
            await expectError(.invalidArgument) { _ = try await test.db.collection("a/b").document("c/d/e").getDocument() }
            let ref = test.db.document("users/alice")
            await expectError(.invalidArgument) { try await ref.setData(["x": FieldValue.delete()]) }
            await expectError(.invalidArgument) { try await ref.setData(["bad": NSObject()]) }
            await expectError(.invalidArgument) { try await ref.setData(["list": [FieldValue.serverTimestamp()]]) }
            await expectError(.invalidArgument) { try await ref.setData(["nested": [[1], [2]]]) }
            let after = try await ref.getDocument()
            #expect(!after.exists)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func cacheAnswersOnlyWhatWasSeen(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("users/alice")
            let error = await expectError(.unavailable) { _ = try await ref.getDocument(source: .cache) }
            #expect(error?.message.contains("Failed to get document from cache") == true)
            let seenMissing = try await ref.getDocument()
            #expect(!seenMissing.exists)
            let cachedMissing = try await ref.getDocument(source: .cache)
            #expect(!cachedMissing.exists && cachedMissing.metadata.isFromCache)

            try await ref.setData(["v": 1])
            // The instance's own acknowledged write is in its cache.
            let written = try await ref.getDocument(source: .cache)
            #expect(written.get("v") as? Int == 1 && written.metadata.isFromCache && !written.metadata.hasPendingWrites)
            // A change by another instance is not seen until this one reads again.
            try await test.as(.admin).document("users/alice").setData(["v": 2])
            let cached = try await ref.getDocument(source: .cache)
            #expect(cached.get("v") as? Int == 1 && cached.metadata.isFromCache)
            let fresh = try await ref.getDocument()
            #expect(fresh.get("v") as? Int == 2 && !fresh.metadata.isFromCache)
        }
    }

    @Test func referencesNavigate() throws {
        let db = try Firestore.embedded()
        let post = db.collection("users").document("alice").collection("posts").document("p1")
        #expect(post.path == "users/alice/posts/p1")
        #expect(post.documentID == "p1")
        #expect(post.parent.path == "users/alice/posts")
        #expect(post.parent.collectionID == "posts")
        #expect(post.parent.parent?.path == "users/alice")
        #expect(db.collection("users").parent == nil)
        #expect(db.document("users/alice") == db.collection("users").document("alice"))
        let generated = db.collection("users").document()
        #expect(generated.documentID.count == 20)
        #expect(generated.documentID != db.collection("users").document().documentID)
        #expect(db.projectID == Firestore.defaultProjectID && db.databaseID == "(default)")
    }
}
