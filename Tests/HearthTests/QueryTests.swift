import Foundation
import Hearth
import Testing

@Suite("Query on both backends")
struct QueryTests {
    /// Five cities with a population, a region and tags.
    static func seed(_ db: Firestore) async throws {
        let batch = db.batch()
        let cities: [(String, [String: Any])] = [
            ("SF", ["name": "San Francisco", "state": "CA", "population": 860_000, "tags": ["west", "coast"]]),
            ("LA", ["name": "Los Angeles", "state": "CA", "population": 3_900_000, "tags": ["west"]]),
            ("DC", ["name": "Washington", "state": "DC", "population": 680_000, "tags": ["east", "capital"]]),
            ("TOK", ["name": "Tokyo", "state": "", "population": 9_000_000, "tags": ["capital"]]),
            ("BJ", ["name": "Beijing", "state": "BJ", "mayor": NSNull(), "population": 21_500_000, "tags": ["capital"]]),
        ]
        for (id, data) in cities { batch.setData(data, forDocument: db.collection("cities").document(id)) }
        try await batch.commit()
    }

    static func ids(_ query: Query) async throws -> [String] {
        try await query.getDocuments().documents.map(\.documentID)
    }

    @Test(arguments: BackendKind.allCases)
    func fieldFilters(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            try await QueryTests.seed(test.db)
            let cities = test.db.collection("cities")
            #expect(try await QueryTests.ids(cities) == ["BJ", "DC", "LA", "SF", "TOK"])
            #expect(try await QueryTests.ids(cities.whereField("state", isEqualTo: "CA")) == ["LA", "SF"])
            #expect(try await QueryTests.ids(cities.whereField("state", isNotEqualTo: "CA")) == ["TOK", "BJ", "DC"])
            #expect(try await QueryTests.ids(cities.whereField("population", isLessThan: 860_000)) == ["DC"])
            #expect(try await QueryTests.ids(cities.whereField("population", isLessThanOrEqualTo: 860_000)) == ["DC", "SF"])
            #expect(try await QueryTests.ids(cities.whereField("population", isGreaterThan: 9_000_000)) == ["BJ"])
            #expect(try await QueryTests.ids(cities.whereField(FieldPath(["population"]), isGreaterThanOrEqualTo: 9_000_000)) == ["TOK", "BJ"])
            #expect(try await QueryTests.ids(cities.whereField("tags", arrayContains: "west")) == ["LA", "SF"])
            #expect(try await QueryTests.ids(cities.whereField("tags", arrayContainsAny: ["east", "coast"])) == ["DC", "SF"])
            #expect(try await QueryTests.ids(cities.whereField("state", in: ["DC", ""])) == ["DC", "TOK"])
            #expect(try await QueryTests.ids(cities.whereField("state", notIn: ["CA", ""])) == ["BJ", "DC"])
            #expect(try await QueryTests.ids(cities.whereField("mayor", isEqualTo: NSNull())) == ["BJ"])
            #expect(try await QueryTests.ids(cities.whereField(FieldPath.documentID(), isEqualTo: "LA")) == ["LA"])
            #expect(try await QueryTests.ids(cities.whereField(FieldPath.documentID(), in: ["LA", "DC"])) == ["DC", "LA"])
        }
    }

    @Test(arguments: BackendKind.allCases)
    func compositeFilters(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            try await QueryTests.seed(test.db)
            let cities = test.db.collection("cities")
            let either = cities.whereFilter(.orFilter([
                .whereField("state", isEqualTo: "DC"),
                .andFilter([.whereField("state", isEqualTo: "CA"), .whereField("population", isGreaterThan: 1_000_000)]),
            ]))
            #expect(try await QueryTests.ids(either) == ["DC", "LA"])
            let both = cities.whereField("tags", arrayContains: "capital").whereField("population", isLessThan: 10_000_000)
            #expect(try await QueryTests.ids(both) == ["DC", "TOK"])
        }
    }

    @Test(arguments: BackendKind.allCases)
    func orderLimitAndCursors(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            try await QueryTests.seed(test.db)
            let byPopulation = test.db.collection("cities").order(by: "population")
            #expect(try await QueryTests.ids(byPopulation) == ["DC", "SF", "LA", "TOK", "BJ"])
            #expect(try await QueryTests.ids(byPopulation.order(by: "name", descending: true).limit(to: 2)) == ["DC", "SF"])
            #expect(try await QueryTests.ids(test.db.collection("cities").order(by: "population", descending: true).limit(to: 2)) == ["BJ", "TOK"])
            #expect(try await QueryTests.ids(byPopulation.limit(toLast: 2)) == ["TOK", "BJ"])
            #expect(try await QueryTests.ids(byPopulation.start(at: [860_000])) == ["SF", "LA", "TOK", "BJ"])
            #expect(try await QueryTests.ids(byPopulation.start(after: [860_000])) == ["LA", "TOK", "BJ"])
            #expect(try await QueryTests.ids(byPopulation.end(at: [860_000])) == ["DC", "SF"])
            #expect(try await QueryTests.ids(byPopulation.end(before: [860_000])) == ["DC"])
            #expect(try await QueryTests.ids(byPopulation.start(after: [680_000]).end(before: [9_000_000]).limit(toLast: 1)) == ["LA"])

            let la = try await test.db.document("cities/LA").getDocument()
            #expect(try await QueryTests.ids(byPopulation.start(atDocument: la)) == ["LA", "TOK", "BJ"])
            #expect(try await QueryTests.ids(byPopulation.start(afterDocument: la)) == ["TOK", "BJ"])
            #expect(try await QueryTests.ids(byPopulation.end(atDocument: la)) == ["DC", "SF", "LA"])
            #expect(try await QueryTests.ids(byPopulation.end(beforeDocument: la)) == ["DC", "SF"])
            // Without an explicit order, the inequality field and then the name order the results.
            let big = test.db.collection("cities").whereField("population", isGreaterThan: 1_000_000)
            #expect(try await QueryTests.ids(big.start(afterDocument: la)) == ["TOK", "BJ"])
        }
    }

    @Test(arguments: BackendKind.allCases)
    func invalidQueriesFailWhenRun(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let cities = test.db.collection("cities")
            await expectError(.invalidArgument) { _ = try await cities.whereField("", isEqualTo: 1).getDocuments() }
            await expectError(.invalidArgument) { _ = try await cities.whereField("a..b", isEqualTo: 1).getDocuments() }
            await expectError(.invalidArgument) { _ = try await cities.limit(to: 0).getDocuments() }
            await expectError(.invalidArgument) { _ = try await cities.limit(toLast: 2).getDocuments() }
            await expectError(.invalidArgument) { _ = try await cities.order(by: "a").start(at: [1, 2, 3]).getDocuments() }
            let missing = try await cities.document("none").getDocument()
            await expectError(.invalidArgument) { _ = try await cities.start(atDocument: missing).getDocuments() }
        }
    }

    @Test(arguments: BackendKind.allCases)
    func collectionGroupsAndSubcollections(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let db = test.db
            try await db.document("users/alice/posts/p1").setData(["n": 1])
            try await db.document("users/bob/posts/p2").setData(["n": 2])
            try await db.document("posts/p3").setData(["n": 3])
            #expect(try await QueryTests.ids(db.collection("users/alice/posts")) == ["p1"])
            #expect(try await QueryTests.ids(db.collectionGroup("posts").order(by: "n")) == ["p1", "p2", "p3"])
            let paths = try await db.collectionGroup("posts").whereField("n", isGreaterThan: 1).getDocuments()
                .documents.map(\.reference.path)
            #expect(paths == ["users/bob/posts/p2", "posts/p3"])
        }
    }

    @Test(arguments: BackendKind.allCases)
    func aggregations(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            try await QueryTests.seed(test.db)
            let cities = test.db.collection("cities")
            #expect(try await cities.count.getAggregation(source: .server).count == 5)
            #expect(try await cities.whereField("state", isEqualTo: "CA").count.getAggregation(source: .server).count == 2)
            let snapshot = try await cities.whereField("state", isEqualTo: "CA")
                .aggregate([.count(), .sum("population"), .average(FieldPath(["population"]))])
                .getAggregation(source: .server)
            #expect(snapshot.count == 2)
            #expect(snapshot.get(.sum("population")) as? Int == 4_760_000)
            #expect(snapshot.get(.average(FieldPath(["population"]))) as? Double == 2_380_000)
            #expect(snapshot.get(.sum("other")) == nil, "not an aggregation of this query")
            // Documents without the field do not take part: no numbers, no average.
            let none = try await cities.aggregate([.average("none")]).getAggregation(source: .server)
            #expect(none.get(.average("none")) == nil)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func queryCacheAndSnapshotShape(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            try await QueryTests.seed(test.db)
            let query = test.db.collection("cities").whereField("state", isEqualTo: "CA")
            // The instance's own acknowledged writes are in its cache.
            let written = try await query.getDocuments(source: .cache)
            #expect(written.metadata.isFromCache && written.documents.map(\.documentID) == ["LA", "SF"])
            // Another instance's cache has seen nothing: its cache query is empty, not an error.
            let other = test.db.withIdentity(.admin)
            let unseen = try await other.collection("cities").whereField("state", isEqualTo: "CA").getDocuments(source: .cache)
            #expect(unseen.isEmpty && unseen.metadata.isFromCache)
            let snapshot = try await query.getDocuments()
            #expect(snapshot.count == 2 && !snapshot.isEmpty && !snapshot.metadata.isFromCache)
            #expect(snapshot.documentChanges.map(\.type) == [.added, .added])
            #expect(snapshot.documentChanges.map(\.newIndex) == [0, 1])
            #expect(snapshot.documents[0].data()["name"] as? String == "Los Angeles")
            let cached = try await query.getDocuments(source: .cache)
            #expect(cached.metadata.isFromCache && cached.documents.map(\.documentID) == ["LA", "SF"])
            // A cached query also answers single-document cache reads.
            #expect(try await test.db.document("cities/SF").getDocument(source: .cache).get("state") as? String == "CA")
            try await test.db.document("cities/NEW").setData(["state": "CA"])
            let withWrite = try await query.getDocuments(source: .cache)
            #expect(withWrite.documents.map(\.documentID) == ["LA", "NEW", "SF"])
        }
    }
}
