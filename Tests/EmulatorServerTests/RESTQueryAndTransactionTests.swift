@testable import EmulatorServer
import Foundation
import Testing

/// `:runQuery`, `:runAggregationQuery`, `:beginTransaction`, `:rollback` and transactional reads
/// and commits over REST, in proto3 JSON, with security rules.
@Suite struct RESTQueryAndTransactionTests {
    private let documents = "/v1/projects/demo-test/databases/(default)/documents"
    private let owner = ["Authorization": "Bearer owner"]

    private func seed(_ http: RawHTTPClient) async throws {
        for (id, n) in [("a", 1), ("b", 2), ("c", 3)] {
            let response = try await http.send(
                "PATCH", "\(documents)/open/\(id)", body: #"{"fields": {"n": {"integerValue": "\#(n)"}}}"#, headers: owner)
            try #require(response.status == 200, "\(response.body)")
        }
    }

    @Test func runQueryAnswersAJSONArrayEndingWithDone() async throws {
        try await TestServer.run(rules: RulesFixtures.rules) { server in
            let http = server.http
            try await seed(http)
            let query = #"{"structuredQuery": {"from": [{"collectionId": "open"}], "where": {"fieldFilter": "#
                + #"{"field": {"fieldPath": "n"}, "op": "GREATER_THAN", "value": {"integerValue": "1"}}}}}"#
            let response = try await http.send("POST", "\(documents):runQuery", body: query)
            #expect(response.status == 200, "\(response.body)")
            let results = try #require(response.json as? [[String: Any]])
            #expect(results.compactMap { ($0["document"] as? [String: Any])?["name"] as? String }
                == ["b", "c"].map { "projects/demo-test/databases/(default)/documents/open/\($0)" })
            #expect(results.last?["done"] as? Bool == true)
            #expect(results.allSatisfy { $0["readTime"] is String })

            let empty = try await http.send(
                "POST", "\(documents):runQuery", body: #"{"structuredQuery": {"from": [{"collectionId": "none"}]}}"#,
                headers: owner)
            let only = try #require(empty.json as? [[String: Any]])
            #expect(only.count == 1 && only[0]["done"] as? Bool == true && only[0]["document"] == nil)

            let denied = try await http.send(
                "POST", "\(documents):runQuery", body: #"{"structuredQuery": {"from": [{"collectionId": "users"}]}}"#,
                headers: RulesFixtures.userHeader("alice"))
            #expect(denied.status == 403)
            #expect(denied.errorStatus == "PERMISSION_DENIED")
        }
    }

    @Test func runAggregationQueryAnswersAJSONArray() async throws {
        try await TestServer.run { server in
            let http = server.http
            try await seed(http)
            let body = #"{"structuredAggregationQuery": {"structuredQuery": {"from": [{"collectionId": "open"}]}, "#
                + #""aggregations": [{"alias": "total", "sum": {"field": {"fieldPath": "n"}}}, {"count": {}}]}}"#
            let response = try await http.send("POST", "\(documents):runAggregationQuery", body: body)
            #expect(response.status == 200, "\(response.body)")
            let results = try #require(response.json as? [[String: Any]])
            let fields = (results.first?["result"] as? [String: Any])?["aggregateFields"] as? [String: Any]
            #expect((fields?["total"] as? [String: Any])?["integerValue"] as? String == "6")
            #expect((fields?["field_1"] as? [String: Any])?["integerValue"] as? String == "3")
        }
    }

    @Test func transactionsBeginReadCommitAndRollBack() async throws {
        try await TestServer.run { server in
            let http = server.http
            try await seed(http)
            let begun = try await http.send("POST", "\(documents):beginTransaction", body: "{}", headers: owner)
            #expect(begun.status == 200, "\(begun.body)")
            let transaction = try #require((begun.json as? [String: Any])?["transaction"] as? String)
            let encoded = transaction.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? transaction

            let read = try await http.send("GET", "\(documents)/open/a?transaction=\(encoded)", headers: owner)
            #expect(read.status == 200, "\(read.body)")
            let listed = try await http.send("GET", "\(documents)/open?transaction=\(encoded)", headers: owner)
            #expect(((listed.json as? [String: Any])?["documents"] as? [Any])?.count == 3, "\(listed.body)")
            let queried = try await http.send(
                "POST", "\(documents):runQuery",
                body: #"{"structuredQuery": {"from": [{"collectionId": "open"}]}, "transaction": "\#(transaction)"}"#,
                headers: owner)
            #expect((queried.json as? [[String: Any]])?.count == 3, "\(queried.body)")

            let name = "projects/demo-test/databases/(default)/documents/open/a"
            let commit = try await http.send(
                "POST", "\(documents):commit",
                body: #"{"transaction": "\#(transaction)", "writes": [{"update": {"name": "\#(name)", "#
                    + #""fields": {"n": {"integerValue": "10"}}}}]}"#,
                headers: owner)
            #expect(commit.status == 200, "\(commit.body)")
            let after = try await http.send("GET", "\(documents)/open/a", headers: owner)
            #expect(after.body.contains(#""integerValue":"10""#))

            let second = try await http.send(
                "POST", "\(documents):runQuery",
                body: #"{"structuredQuery": {"from": [{"collectionId": "open"}]}, "newTransaction": {"readOnly": {}}}"#,
                headers: owner)
            let started = try #require((second.json as? [[String: Any]])?.first?["transaction"] as? String)
            let rolledBack = try await http.send(
                "POST", "\(documents):rollback", body: #"{"transaction": "\#(started)"}"#, headers: owner)
            #expect(rolledBack.status == 200, "\(rolledBack.body)")
            #expect(rolledBack.body == "{}")
        }
    }
}
