import DocumentModel
import DocumentStore
import Foundation
import LevelDB

/// The measurements of the `queries` workload. Each checks its query's answer once before
/// timing it, and prints the plan the store chose.
struct QueryWorkloads {
    let iterations: Int

    /// Random numbers below `bound`, the same in every run.
    func picks(_ bound: Int, seed: UInt64) -> [Int] {
        var random = SplitMix64(state: seed)
        return (0..<iterations).map { _ in Int(random.next() % UInt64(max(bound, 1))) }
    }

    func describe(_ label: String, _ plan: QueryPlan) {
        print("\(label): \(plan)")
    }

    /// The names of a team's members, in name order.
    func teamNames(_ users: QueryUsers, _ team: Int) throws -> [DocumentName] {
        try (team * QueryUsers.teamSize..<(team + 1) * QueryUsers.teamSize).map(users.name).sorted()
    }

    func teamQuery(_ users: QueryUsers, _ team: Int, group: Bool = false) throws -> Query {
        users.query(filter: .field(try FieldPath("team"), .equal, .integer(Int64(team))), group: group)
    }

    func rangeQuery(_ users: QueryUsers, from number: Int) throws -> Query {
        let createdAt = try FieldPath("createdAt")
        return users.query(
            filter: .field(createdAt, .greaterThanOrEqual, .timestamp(QueryUsers.createdAt(number))),
            orderBy: [Order(createdAt)], limit: 20)
    }

    func check(_ condition: Bool, _ message: String) throws {
        guard condition else { throw BenchmarkError(message) }
    }

    /// An equality returning 20 documents, against getting those 20 documents by name.
    func equality(_ users: QueryUsers, _ store: DocumentStore) throws -> QueryMeasurement {
        let teams = picks(users.count / QueryUsers.teamSize, seed: 1)
        let queries = try teams.map { try teamQuery(users, $0) }
        let names = try teams.map { try teamNames(users, $0) }
        try check(try store.runQuery(queries[0]).documents.map(\.name) == names[0], "equality: wrong answer")
        describe("equality team == k", try store.explain(queries[0]))
        let (hearth, reference) = try alternate(
            iterations, { _ = try store.runQuery(queries[$0]) }, { _ = try store.documents(names[$0]) })
        return QueryMeasurement(
            label: "equality, 20 results", hearth: hearth, reference: reference,
            referenceLabel: "get the 20 documents by name", goal: 5)
    }

    /// A range with an order and limit 20, against getting the 20 documents by name.
    func range(_ users: QueryUsers, _ store: DocumentStore) throws -> QueryMeasurement {
        let starts = picks(users.count - 20, seed: 2)
        let queries = try starts.map { try rangeQuery(users, from: $0) }
        let names = try starts.map { start in try (start..<start + 20).map(users.name) }
        try check(try store.runQuery(queries[0]).documents.map(\.name) == names[0], "range: wrong answer")
        describe("range createdAt >= t order by createdAt limit 20", try store.explain(queries[0]))
        let (hearth, reference) = try alternate(
            iterations, { _ = try store.runQuery(queries[$0]) }, { _ = try store.documents(names[$0]) })
        return QueryMeasurement(
            label: "range + order by + limit 20", hearth: hearth, reference: reference,
            referenceLabel: "get the 20 documents by name", goal: 5)
    }

    /// The equality as a collection-group query.
    func collectionGroup(_ users: QueryUsers, _ store: DocumentStore) throws -> QueryMeasurement {
        let teams = picks(users.count / QueryUsers.teamSize, seed: 3)
        let queries = try teams.map { try teamQuery(users, $0, group: true) }
        let names = try teams.map { try teamNames(users, $0) }
        try check(try store.runQuery(queries[0]).documents.map(\.name) == names[0], "group: wrong answer")
        describe("collection group users, team == k", try store.explain(queries[0]))
        let (hearth, reference) = try alternate(
            iterations, { _ = try store.runQuery(queries[$0]) }, { _ = try store.documents(names[$0]) })
        return QueryMeasurement(
            label: "collection group, 20 results", hearth: hearth, reference: reference,
            referenceLabel: "get the 20 documents by name", goal: 5)
    }

    /// Counting the users of one country (10%), against reading them with the same query.
    func count(_ users: QueryUsers, _ store: DocumentStore) throws -> QueryMeasurement {
        let query = users.query(filter: .field(try FieldPath("country"), .equal, "FR"))
        let aggregation = AggregationQuery(query: query, aggregations: [Aggregation(.count(upTo: nil))])
        let expected = Int64((users.count + 9) / 10)
        try check(try store.runAggregation(aggregation).fields["field_1"] == .integer(expected), "count: wrong answer")
        describe("count country == FR", try store.explain(aggregation))
        let rounds = max(3, min(iterations, 5_000_000 / max(users.count, 1)))
        let (hearth, reference) = try alternate(
            rounds, { _ in _ = try store.runAggregation(aggregation) }, { _ in _ = try store.runQuery(query) })
        return QueryMeasurement(
            label: "count of \(expected) matches", hearth: hearth, reference: reference,
            referenceLabel: "run the query and read the documents", goal: 0.2)
    }

    /// The equality and the range on a small and on the large collection. Fetching the same
    /// number of documents by name also gets slower as the data outgrows LevelDB's caches, so
    /// that growth is measured too, and a query passes when its cost grows by at most a quarter
    /// more than the fetches': the engine adds no cost that grows with the collection.
    func scaling(
        small: (QueryUsers, DocumentStore), large: (QueryUsers, DocumentStore)
    ) throws -> [QueryMeasurement] {
        let smallTeams = picks(small.0.count / QueryUsers.teamSize, seed: 4)
        let largeTeams = picks(large.0.count / QueryUsers.teamSize, seed: 5)
        let smallNames = try smallTeams.map { try teamNames(small.0, $0) }
        let largeNames = try largeTeams.map { try teamNames(large.0, $0) }
        let (largeGet, smallGet) = try alternate(
            iterations, { _ = try large.1.documents(largeNames[$0]) }, { _ = try small.1.documents(smallNames[$0]) })
        let smallQueries = try smallTeams.map { try teamQuery(small.0, $0) }
        let largeQueries = try largeTeams.map { try teamQuery(large.0, $0) }
        let (largeEquality, smallEquality) = try alternate(
            iterations, { _ = try large.1.runQuery(largeQueries[$0]) }, { _ = try small.1.runQuery(smallQueries[$0]) })
        let smallRanges = try picks(small.0.count - 20, seed: 6).map { try rangeQuery(small.0, from: $0) }
        let largeRanges = try picks(large.0.count - 20, seed: 7).map { try rangeQuery(large.0, from: $0) }
        let (largeRange, smallRange) = try alternate(
            iterations, { _ = try large.1.runQuery(largeRanges[$0]) }, { _ = try small.1.runQuery(smallRanges[$0]) })
        let label = "\(large.0.count) vs \(small.0.count) documents"
        let reference = "the same on \(small.0.count) documents"
        let allowed = 1.25 * largeGet / smallGet
        return [
            QueryMeasurement(
                label: "get 20 by name, \(label)", hearth: largeGet, reference: smallGet,
                referenceLabel: reference + " (storage's own growth)", goal: nil),
            QueryMeasurement(
                label: "equality, \(label)", hearth: largeEquality, reference: smallEquality,
                referenceLabel: reference + "; goal: 1.25 x the gets' growth", goal: allowed),
            QueryMeasurement(
                label: "range, \(label)", hearth: largeRange, reference: smallRange,
                referenceLabel: reference + "; goal: 1.25 x the gets' growth", goal: allowed),
        ]
    }

    /// Creating a user, with its index entries, one per commit, against a raw LevelDB put of
    /// the document's key and value alone; and, for reference, raw LevelDB writing one batch of
    /// the document and its index keys (what the index costs LevelDB itself). Each of `rounds`
    /// rounds uses fresh folders; each side's best round is reported, as in `storage`.
    func create(count: Int, rounds: Int, scratch: Scratch) throws -> [QueryMeasurement] {
        let users = try QueryUsers(count: count)
        let writes = try (0..<count).map { Write.create(try users.name($0), fields: users.fields($0)) }
        let version = SystemWallClock().now().microsecondsSinceEpoch
        var raw: [(key: [UInt8], value: [UInt8], index: [[UInt8]])] = []
        for number in 0..<count {
            let time = Timestamp(microsecondsSinceEpoch: version + Int64(number))
            let name = try users.name(number)
            let document = Document(name: name, fields: users.fields(number), createTime: time, updateTime: time)
            // A new store gives the first collection group it indexes id 1.
            raw.append((StorageKeys.version(name, version + Int64(number)), DocumentCodec.encode(document),
                StorageKeys.indexKeys(of: document, groupID: 1)))
        }
        var best = [Double](repeating: .infinity, count: 3)
        for round in 0..<rounds {
            let folders = ["queries-create", "queries-raw", "queries-floor"].map(scratch.folder)
            let store = try DocumentStore(path: folders[0], configuration: storeConfiguration())
            let database = try Database(path: folders[1], options: levelDBOptions)
            let floor = try Database(path: folders[2], options: levelDBOptions)
            let times = try interleave(
                [
                    Side(run: { range in for index in range { try store.commit([writes[index]]) } }, close: { try store.close() }),
                    Side(run: { range in for index in range { try database.put(raw[index].key, raw[index].value) } }, close: { try database.close() }),
                    Side(
                        run: { range in
                            for index in range {
                                let batch = WriteBatch()
                                batch.put(raw[index].key, raw[index].value)
                                for key in raw[index].index { batch.put(key, []) }
                                try floor.write(batch)
                            }
                        }, close: { try floor.close() }),
                ], count: count, chunk: max(1, count / 20), round: round)
            folders.forEach(scratch.remove)
            print(
                "create round \(round + 1): Hearth \(formatted(times[0])) ns, raw put \(formatted(times[1])) ns, "
                    + "floor \(formatted(times[2])) ns (ratio \(formatted(times[0] / times[1], 2)))")
            best = zip(best, times).map { min($0, $1) }
        }
        let entries = raw.first?.index.count ?? 0
        return [
            QueryMeasurement(
                label: "create a user with its index entries", hearth: best[0], reference: best[1],
                referenceLabel: "raw LevelDB put of the document alone", goal: 5),
            QueryMeasurement(
                label: "  floor: put document + \(entries) index keys", hearth: best[2], reference: best[1],
                referenceLabel: "raw LevelDB batch of the document and its index keys (reference)", goal: nil),
        ]
    }
}
