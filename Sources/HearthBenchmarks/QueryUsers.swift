import DocumentModel
import DocumentStore
import Foundation

/// The query benchmark's documents, `users/<uid>`, generated from their number so that
/// nothing is kept in memory: the spec's user fields plus fields to query.
///
/// - `uid`: 28 random alphanumeric characters (document names are in random order);
/// - `email`, `displayName`, `photoURL`;
/// - `createdAt` and `updatedAt`: `start + number` seconds (unique, increasing with the number);
/// - `age`: 18 to 90; `country`: one of 10 codes, `number % 10` (each 10% of the users);
/// - `team`: `number / 20`, so each team has 20 members.
struct QueryUsers {
    let database: DatabaseID
    let count: Int
    static let countries: [String] = ["FR", "NZ", "US", "JP", "DE", "BR", "IN", "GB", "CA", "MX"]
    static let teamSize = 20
    /// 2024-01-01T00:00:00Z.
    static let start: Int64 = 1_704_067_200

    init(count: Int) throws {
        database = try DatabaseID(project: "bench")
        self.count = count
    }

    func uid(_ number: Int) -> String {
        var random = SplitMix64(state: 0x5EED_0000 ^ UInt64(number))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        return String(decoding: (0..<28).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }, as: UTF8.self)
    }

    func name(_ number: Int) throws -> DocumentName {
        try DocumentName(database, ResourcePath(segments: ["users", uid(number)]))
    }

    static func createdAt(_ number: Int) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: (start + Int64(number)) * 1_000_000)
    }

    func fields(_ number: Int) -> MapValue {
        let uid = uid(number)
        var random = SplitMix64(state: 0xA6E ^ UInt64(number))
        return [
            "uid": .string(uid),
            "email": .string("user\(number)@example.com"),
            "displayName": .string("User Number \(number)"),
            "photoURL": .string("https://example.com/photos/\(uid).jpg"),
            "createdAt": .timestamp(QueryUsers.createdAt(number)),
            "updatedAt": .timestamp(QueryUsers.createdAt(number)),
            "age": .integer(Int64(18 + random.next() % 73)),
            "country": .string(QueryUsers.countries[number % QueryUsers.countries.count]),
            "team": .integer(Int64(number / QueryUsers.teamSize)),
        ]
    }

    /// Creates every user in `store`, 500 per commit, printing progress for large sets.
    func load(into store: DocumentStore) throws {
        let clock = ContinuousClock()
        let began = clock.now
        var next = 0
        while next < count {
            let end = min(next + 500, count)
            try store.commit(try (next..<end).map { .create(try name($0), fields: fields($0)) })
            next = end
            if count >= 200_000, next % 100_000 == 0 {
                print("  loaded \(next) users in \(clock.now - began)")
            }
        }
    }

    /// A query of the `users` collection (or collection group).
    func query(
        filter: QueryFilter?, orderBy: [Order] = [], limit: Int? = nil, group: Bool = false
    ) -> Query {
        Query(
            database: database, parent: .root,
            structured: StructuredQuery(
                from: CollectionSelector(collectionID: "users", allDescendants: group), filter: filter,
                orderBy: orderBy, limit: limit))
    }
}
