import DocumentModel
import DocumentStore
import FirestoreWire
import EmulatorServer
import Foundation
import Hearth
import HearthPersistence
import Testing

/// Queries over the client's cache through its field index (#14) answer as the server does, with
/// a memory and a persistent cache: queries the index narrows (equalities, ranges, orders with a
/// limit, `in`, array-contains, nested fields, collection groups) and ones it only helps or leaves
/// to a scan (`!=`, `not-in`, `OR`, cursors, offsets, descending orders, projections), over
/// documents lacking the field or holding other types; before, with and after pending writes (a
/// document a pending write moves into or out of a result), and after reopening the cache.
@Suite("Queries over the cache's field index")
struct CacheIndexQueryTests {
    enum Cache: String, CaseIterable, CustomTestStringConvertible {
        case memory, persistent
        var testDescription: String { rawValue }
    }

    static let project = "demo-cache-index"
    static let database = try! DatabaseID(project: project)

    /// The documents: `items/iNN` with `n` (0...6; missing in some, a string or a double in
    /// others), `s`, `tags` and `m.k`; and `groups/g1/items/jN` for collection-group queries.
    static func seed(_ store: DocumentStore) throws {
        var writes: [Write] = []
        for number in 0..<60 {
            var fields: MapValue = [
                "s": .string(["a", "b", "c"][number % 3]),
                "tags": .array([.integer(Int64(number % 4)), .integer(Int64(number % 5))]),
                "m": .map(["k": .integer(Int64(number % 6))]),
            ]
            if number % 13 == 0 {
                fields["n"] = .string("text")
            } else if number % 11 == 0 {
                fields["n"] = .double(Double(number % 7) + 0.5)
            } else if number % 10 != 9 {
                fields["n"] = .integer(Int64(number % 7))
            }
            writes.append(.set(try DocumentName(database, "items/i\(number < 10 ? "0" : "")\(number)"), fields: fields))
        }
        for number in 0..<10 {
            writes.append(.set(
                try DocumentName(database, "groups/g1/items/j\(number)"),
                fields: ["n": .integer(Int64(number % 7)), "s": .string("a")]))
        }
        _ = try store.commit(writes)
    }

    static let equalsThree = #"{"fieldFilter":{"field":{"fieldPath":"n"},"op":"EQUAL","value":{"integerValue":"3"}}}"#

    /// Structured queries in REST JSON.
    static let queries: [String] = [
        #"{"from":[{"collectionId":"items"}],"where":\#(equalsThree)}"#,
        #"{"from":[{"collectionId":"items"}],"where":\#(equalsThree),"limit":2}"#,
        #"{"from":[{"collectionId":"items"}],"where":\#(equalsThree),"offset":1,"limit":2}"#,
        #"{"from":[{"collectionId":"items"}],"where":\#(equalsThree),"orderBy":[{"field":{"fieldPath":"n"}}],"limit":3}"#,
        #"{"from":[{"collectionId":"items"}],"where":\#(equalsThree),"orderBy":[{"field":{"fieldPath":"__name__"},"direction":"DESCENDING"}],"limit":2}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"GREATER_THAN_OR_EQUAL","value":{"integerValue":"2"}}},"limit":5}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"GREATER_THAN","value":{"integerValue":"2"}}}}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"LESS_THAN","value":{"integerValue":"4"}}},"orderBy":[{"field":{"fieldPath":"n"},"direction":"DESCENDING"}],"limit":3}"#,
        #"{"from":[{"collectionId":"items"}],"orderBy":[{"field":{"fieldPath":"n"}}],"limit":4}"#,
        #"{"from":[{"collectionId":"items"}],"orderBy":[{"field":{"fieldPath":"n"}}],"offset":50,"limit":10}"#,
        #"{"from":[{"collectionId":"items"}],"orderBy":[{"field":{"fieldPath":"n"},"direction":"DESCENDING"}],"limit":4}"#,
        #"{"from":[{"collectionId":"items"}],"orderBy":[{"field":{"fieldPath":"n"}}],"startAt":{"values":[{"integerValue":"2"}],"before":false},"limit":3}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"IN","value":{"arrayValue":{"values":[{"integerValue":"1"},{"integerValue":"4"}]}}}},"limit":3}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"IN","value":{"arrayValue":{"values":[{"integerValue":"1"},{"integerValue":"4"}]}}}},"orderBy":[{"field":{"fieldPath":"n"}}],"limit":5}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"tags"},"op":"ARRAY_CONTAINS","value":{"integerValue":"2"}}}}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"tags"},"op":"ARRAY_CONTAINS_ANY","value":{"arrayValue":{"values":[{"integerValue":"1"},{"integerValue":"3"}]}}}},"limit":5}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"NOT_EQUAL","value":{"integerValue":"3"}}},"limit":6}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"NOT_IN","value":{"arrayValue":{"values":[{"integerValue":"1"},{"integerValue":"2"}]}}}}}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"compositeFilter":{"op":"OR","filters":[\#(equalsThree),{"fieldFilter":{"field":{"fieldPath":"s"},"op":"EQUAL","value":{"stringValue":"b"}}}]}},"limit":5}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"compositeFilter":{"op":"AND","filters":[\#(equalsThree),{"fieldFilter":{"field":{"fieldPath":"s"},"op":"EQUAL","value":{"stringValue":"a"}}}]}}}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"s"},"op":"EQUAL","value":{"stringValue":"a"}}},"orderBy":[{"field":{"fieldPath":"n"}}],"limit":5}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"m.k"},"op":"EQUAL","value":{"integerValue":"4"}}},"limit":2}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"EQUAL","value":{"stringValue":"text"}}}}"#,
        #"{"from":[{"collectionId":"items"}],"where":{"unaryFilter":{"field":{"fieldPath":"n"},"op":"IS_NOT_NULL"}},"limit":4}"#,
        #"{"from":[{"collectionId":"items"}],"select":{"fields":[{"fieldPath":"s"}]},"where":\#(equalsThree),"limit":3}"#,
        #"{"from":[{"collectionId":"items","allDescendants":true}],"where":\#(equalsThree),"limit":3}"#,
        #"{"from":[{"collectionId":"items","allDescendants":true}],"where":{"fieldFilter":{"field":{"fieldPath":"s"},"op":"EQUAL","value":{"stringValue":"a"}}}}"#,
    ]

    static func model(_ json: String, parent: ResourcePath = .root) throws -> DocumentModel.Query {
        DocumentModel.Query(
            database: database, parent: parent, structured: try RESTJSON.decodeQuery(try JSONValue(parsing: json)))
    }

    /// The names and fields of a query's answer from `source`, or the error's code.
    static func answer(_ db: Firestore, _ json: String, _ source: FirestoreSource) async throws -> [String] {
        do {
            return try await db.documents(of: try model(json), source: source).map { "\($0.name.path) \($0.fields)" }
        } catch let error as FirestoreError where error.code == .invalidArgument {
            return ["error \(error.code)"]
        }
    }

    /// Every query's answer from `source`.
    static func answers(_ db: Firestore, _ queries: [String], _ source: FirestoreSource) async throws -> [[String]] {
        var answers: [[String]] = []
        for query in queries { answers.append(try await answer(db, query, source)) }
        return answers
    }

    /// Expects `actual` to equal `expected`, query by query.
    static func expectSame(
        _ actual: [[String]], _ expected: [[String]], _ queries: [String], _ phase: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (index, query) in queries.enumerated() {
            let same = actual[index] == expected[index]
            let names = { (answer: [String]) in answer.map { $0.prefix { $0 != " " } }.joined(separator: ", ") }
            #expect(
                same, "\(phase): \(query)\n  cache: \(names(actual[index]))\n  expected: \(names(expected[index]))",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: Cache.allCases)
    func indexedQueriesAnswerAsTheServer(_ cache: Cache) async throws {
        try await Self.compare(cache, Self.queries)
    }

    /// Random queries (seeded): one to three filters of `==`, ranges, `!=`, `in`, `not-in` and
    /// array-contains on `n`, `m.k`, `s` and `tags`, sometimes in an `OR`; up to two orders in
    /// either direction; a limit, sometimes an offset. Firestore refuses some (both sides must).
    @Test(arguments: Cache.allCases)
    func randomQueriesAnswerAsTheServer(_ cache: Cache) async throws {
        var random = SeededRandom(seed: 14)
        var queries: [String] = []
        for _ in 0..<150 { queries.append(Self.randomQuery(&random)) }
        try await Self.compare(cache, queries)
    }

    struct SeededRandom: RandomNumberGenerator {
        var seed: UInt64
        mutating func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomQuery(_ random: inout SeededRandom) -> String {
        func integer() -> String { #"{"integerValue":"\#(Int.random(in: 0...6, using: &random))"}"# }
        func filter() -> String {
            let field = ["n", "n", "m.k", "s", "tags"].randomElement(using: &random)!
            let op: String
            let value: String
            switch field {
            case "s":
                op = ["EQUAL", "IN", "GREATER_THAN"].randomElement(using: &random)!
                value = op == "IN" ? #"{"arrayValue":{"values":[{"stringValue":"a"},{"stringValue":"c"}]}}"# : #"{"stringValue":"b"}"#
            case "tags":
                op = ["ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY"].randomElement(using: &random)!
                value = op == "ARRAY_CONTAINS" ? integer() : #"{"arrayValue":{"values":[\#(integer()),\#(integer())]}}"#
            default:
                op = ["EQUAL", "EQUAL", "LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN", "GREATER_THAN_OR_EQUAL", "NOT_EQUAL",
                      "IN", "NOT_IN"].randomElement(using: &random)!
                value = ["IN", "NOT_IN"].contains(op) ? #"{"arrayValue":{"values":[\#(integer()),\#(integer())]}}"# : integer()
            }
            return #"{"fieldFilter":{"field":{"fieldPath":"\#(field)"},"op":"\#(op)","value":\#(value)}}"#
        }
        var parts = [#""from":[{"collectionId":"items"\#(Int.random(in: 0..<8, using: &random) == 0 ? #","allDescendants":true"# : "")}]"#]
        let filters = (0..<Int.random(in: 0...3, using: &random)).map { _ in filter() }
        if filters.count == 1 {
            parts.append(#""where":\#(filters[0])"#)
        } else if filters.count > 1 {
            let op = Int.random(in: 0..<4, using: &random) == 0 ? "OR" : "AND"
            parts.append(#""where":{"compositeFilter":{"op":"\#(op)","filters":[\#(filters.joined(separator: ","))]}}"#)
        }
        var fields = ["n", "m.k", "s", "__name__"].shuffled(using: &random)
        fields.removeLast(Int.random(in: 1...4, using: &random))
        if let last = fields.firstIndex(of: "__name__") { fields.removeLast(fields.count - last - 1) }
        if !fields.isEmpty {
            let orders = fields.map { field in
                let direction = Bool.random(using: &random) ? "ASCENDING" : "DESCENDING"
                return #"{"field":{"fieldPath":"\#(field)"},"direction":"\#(direction)"}"#
            }
            parts.append(#""orderBy":[\#(orders.joined(separator: ","))]"#)
        }
        if Int.random(in: 0..<4, using: &random) > 0 { parts.append(#""limit":\#(Int.random(in: 1...8, using: &random))"#) }
        if Int.random(in: 0..<5, using: &random) == 0 { parts.append(#""offset":\#(Int.random(in: 1...5, using: &random))"#) }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// Runs `queries` from a cache of kind `cache` against the server: filled, with pending writes
    /// (against the server once they are acknowledged), acknowledged, and reopened.
    static func compare(_ cache: Cache, _ queries: [String]) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("CacheIndexQueryTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: root.appendingPathComponent("server").path, configuration: configuration)
        defer { try? store.close() }
        try Self.seed(store)
        var settings = FirestoreSettings()
        if cache == .persistent { settings.cacheSettings = PersistentCacheSettings(path: root.appendingPathComponent("cache").path) }

        try await withEmulatorServer(store: store, configuration: EmulatorServerConfiguration(port: 0)) { server in
            let address = try await server.listeningAddress
            let db = try Firestore.remote(host: address.host, port: address.port, projectID: Self.project, settings: settings)
            let everything = #"{"from":[{"collectionId":"","allDescendants":true}]}"#
            #expect(try await Self.answer(db, everything, .server).count == 70)
            Self.expectSame(
                try await Self.answers(db, queries, .cache), try await Self.answers(db, queries, .server), queries, "filled")

            // Pending writes move documents into and out of results, and add and delete some.
            await db.disableNetwork()
            let batch = db.batch()
                .setData(["n": 3, "s": "z", "tags": [2], "m": ["k": 4]], forDocument: db.document("items/i01"))
                .updateData(["n": 5], forDocument: db.document("items/i10"))
                .updateData(["n": 3], forDocument: db.document("items/i24"))
                .deleteDocument(db.document("items/i17"))
                .setData(["n": 3, "s": "a", "tags": [1], "m": ["k": 4]], forDocument: db.document("items/i00new"))
                .setData(["n": 3], forDocument: db.document("groups/g1/items/j00new"))
            let commit = Task { try await batch.commit() }
            while (try? await db.document("items/i00new").getDocument(source: .cache))?.exists != true {
                try await Task.sleep(for: .milliseconds(1))
            }
            let pending = try await Self.answers(db, queries, .cache)
            let equalsThree = try await Self.answer(
                db, #"{"from":[{"collectionId":"items"}],"where":\#(Self.equalsThree)}"#, .cache)
            #expect(equalsThree.contains { $0.contains("i00new") } && equalsThree.contains { $0.contains("i24") })
            #expect(!equalsThree.contains { $0.contains("i10") })
            await db.enableNetwork()
            try await commit.value
            let server = try await Self.answers(db, queries, .server)
            Self.expectSame(pending, server, queries, "pending, against the server once acknowledged")
            Self.expectSame(try await Self.answers(db, queries, .cache), server, queries, "acknowledged")

            guard cache == .persistent else {
                await db.terminate()
                return
            }
            await db.terminate()
            let reopened = try Firestore.remote(
                host: address.host, port: address.port, projectID: Self.project, settings: settings)
            Self.expectSame(try await Self.answers(reopened, queries, .cache), server, queries, "reopened")
            await reopened.terminate()
        }
    }
}
