@testable import EmulatorServer
import Foundation
import Testing

/// Firestore's REST API and the admin endpoints over HTTP/1.1, on the same port as gRPC.
@Suite struct RESTTests {
    private let documents = "/v1/projects/demo-test/databases/(default)/documents"

    @Test func healthCheckAnswersOk() async throws {
        try await TestServer.run { server in
            let response = try await server.http.send("GET", "/")
            #expect(response.status == 200)
            #expect(response.body == "Ok\n")
        }
    }

    @Test func documentsRoundTrip() async throws {
        try await TestServer.run { server in
            let http = server.http
            let created = try await http.send(
                "POST", "\(documents)/users?documentId=alice",
                body: #"{"fields": {"name": {"stringValue": "Alice"}, "age": {"integerValue": "30"}}}"#)
            #expect(created.status == 200, "\(created.body)")
            #expect(created.body.contains(#""name":"projects/demo-test/databases/(default)/documents/users/alice""#))

            let patched = try await http.send(
                "PATCH", "\(documents)/users/alice?updateMask.fieldPaths=age&currentDocument.exists=true",
                body: #"{"fields": {"age": {"integerValue": "31"}, "ignored": {"nullValue": null}}}"#)
            #expect(patched.status == 200, "\(patched.body)")

            let fetched = try await http.send("GET", "\(documents)/users/alice?mask.fieldPaths=age")
            #expect(fetched.status == 200)
            let fields = (fetched.json as? [String: Any])?["fields"] as? [String: Any]
            #expect(fields?.keys.sorted() == ["age"])
            #expect((fields?["age"] as? [String: Any])?["integerValue"] as? String == "31")

            let listed = try await http.send("GET", "\(documents)/users")
            #expect(((listed.json as? [String: Any])?["documents"] as? [Any])?.count == 1)

            #expect(try await http.send("DELETE", "\(documents)/users/alice").status == 200)
            let gone = try await http.send("GET", "\(documents)/users/alice")
            #expect(gone.status == 404)
            #expect(gone.errorStatus == "NOT_FOUND")
        }
    }

    @Test func customMethodsTakeRequestMessages() async throws {
        try await TestServer.run { server in
            let name = "projects/demo-test/databases/(default)/documents/c/d"
            let commit = try await server.http.send(
                "POST", "\(documents):commit",
                body: #"{"writes": [{"update": {"name": "\#(name)", "fields": {"n": {"integerValue": "1"}}}, "#
                    + #""updateTransforms": [{"fieldPath": "at", "setToServerValue": "REQUEST_TIME"}]}]}"#)
            #expect(commit.status == 200, "\(commit.body)")
            #expect((commit.json as? [String: Any])?["commitTime"] is String)

            let batchGet = try await server.http.send(
                "POST", "\(documents):batchGet", body: #"{"documents": ["\#(name)", "\#(name)x"]}"#)
            let results = batchGet.json as? [[String: Any]]
            #expect(results?.count == 2)
            #expect(results?.first?["found"] != nil)
            #expect(results?.last?["missing"] as? String == name + "x")

            let batchWrite = try await server.http.send(
                "POST", "\(documents):batchWrite",
                body: #"{"writes": [{"delete": "\#(name)"}, {"update": {"name": "\#(name)y"}, "currentDocument": {"exists": true}}]}"#,
                headers: ["Authorization": "Bearer owner"])
            let statuses = (batchWrite.json as? [String: Any])?["status"] as? [[String: Any]]
            #expect(statuses?.count == 2)
            #expect(statuses?.last?["code"] as? Int == 5)

            let partition = try await server.http.send("POST", "\(documents):partitionQuery", body: "{}")
            #expect(partition.status == 501)
            #expect(partition.errorStatus == "UNIMPLEMENTED")
        }
    }

    @Test func clearingDeletesADatabaseOrASubtree() async throws {
        try await TestServer.run { server in
            let http = server.http
            for path in ["a/1", "a/1/sub/x", "b/2"] {
                _ = try await http.send("PATCH", "\(documents)/\(path)", body: #"{"fields": {}}"#)
            }
            let before = try await http.send("GET", "\(documents)/b/2")
            let updateTime = (before.json as? [String: Any])?["updateTime"] as? String ?? ""

            let subtree = try await http.send("DELETE", "/emulator/v1/projects/demo-test/databases/(default)/documents/a/1")
            #expect(subtree.status == 200)
            #expect(try await http.send("GET", "\(documents)/a/1").status == 404)
            #expect(try await http.send("GET", "\(documents)/a/1/sub/x").status == 404)
            #expect(try await http.send("GET", "\(documents)/b/2").status == 200)

            #expect(try await http.send("DELETE", "/emulator/v1/projects/demo-test/databases/(default)/documents").status == 200)
            #expect(try await http.send("GET", "\(documents)/b/2").status == 404)
            // A clear is a commit: reads at an earlier time still see the documents.
            let past = try await http.send("GET", "\(documents)/b/2?readTime=\(updateTime)")
            #expect(past.status == 200, "\(past.body)")
        }
    }

    @Test func badRequestsGetProperStatusesAndTheServerServesOn() async throws {
        try await TestServer.run { server in
            let http = server.http
            let cases: [(method: String, path: String, body: String?, status: Int)] = [
                ("POST", "\(documents):commit", "{not json", 400),
                ("POST", "\(documents):commit", #"{"bogus": 1}"#, 400),
                ("GET", "/nowhere", nil, 404),
                ("GET", "/v1/projects/demo-test", nil, 404),
                ("PUT", "\(documents)/c/d", "{}", 404),
                ("GET", "\(documents)/__c__/d", nil, 400),
                ("GET", "\(documents)/c/d?unknownParameter=1", nil, 400),
                ("GET", "\(documents)/c/d", nil, 404),
                ("GET", "\(documents)/c/d%ZZ", nil, 404),
            ]
            for item in cases {
                let response = try await http.send(item.method, item.path, body: item.body)
                #expect(response.status == item.status, "\(item.method) \(item.path): \(response.body)")
            }
            let jwt = try await http.send("GET", "\(documents)/c/d", headers: ["Authorization": "Bearer not-a-jwt"])
            #expect(jwt.status == 400)
            #expect(jwt.body.contains("invalid jwt"))

            let garbage = try await http.exchange(Array("\u{1}\u{2}garbage\r\n\r\n".utf8))
            #expect(String(decoding: garbage, as: UTF8.self).hasPrefix("HTTP/1.1 400"))

            let big = String(repeating: "x", count: 11 * 1024 * 1024)
            let oversized = try await http.send("PATCH", "\(documents)/c/big", body: #"{"fields": {"s": {"stringValue": "\#(big)"}}}"#)
            #expect(oversized.status == 400)
            #expect(oversized.errorStatus == "INVALID_ARGUMENT")

            #expect(try await http.send("GET", "/").body == "Ok\n")
        }
    }
}
