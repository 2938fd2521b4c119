import DocumentModel
import DocumentStore
import FirestoreWire
import Foundation
import Testing

/// `hearth get`, `set`, `delete` and `list`, run as a subprocess on a sandboxed data folder.
@Suite struct DocumentCommandTests {
    /// One field of every type, with the edge cases of each.
    static let everyTypeJSON = """
        {
          "null": {"nullValue": null},
          "yes": {"booleanValue": true},
          "max": {"integerValue": "9223372036854775807"},
          "min": {"integerValue": -9223372036854775808},
          "double": {"doubleValue": 0.1},
          "negativeZero": {"doubleValue": -0.0},
          "nan": {"doubleValue": "NaN"},
          "infinity": {"doubleValue": "Infinity"},
          "minusInfinity": {"doubleValue": "-Infinity"},
          "time": {"timestampValue": "2024-01-01T00:00:00.123456Z"},
          "text": {"stringValue": "héllo \\"world\\"\\n😀"},
          "bytes": {"bytesValue": "AAEC/w=="},
          "ref": {"referenceValue": "projects/demo-hearth/databases/(default)/documents/users/bob"},
          "place": {"geoPointValue": {"latitude": 48.8566, "longitude": 2.3522}},
          "list": {"arrayValue": {"values": [{"integerValue": "1"}, {"mapValue": {}}, {"stringValue": ""}]}},
          "empty": {"arrayValue": {}},
          "nested": {"mapValue": {"fields": {"a b": {"mapValue": {"fields": {"c": {"stringValue": "d"}}}}}}}
        }
        """

    private func fields(of json: String) throws -> MapValue {
        try RESTJSON.decodeDocumentFields(JSONValue(parsing: json))
    }

    private func expectIdentical(_ left: MapValue, _ right: MapValue, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(Value.map(left).isIdentical(to: .map(right)), "\(left) != \(right)", sourceLocation: sourceLocation)
    }

    @Test func setThenGetRoundTripsEveryValueType() throws {
        let sandbox = try Sandbox()
        let set = try sandbox.run(["set", "users/alice", Self.everyTypeJSON])
        #expect(set.exitCode == 0, "\(set.stderr)")
        let updateTime = try Timestamp(rfc3339: set.stdout.trimmingCharacters(in: .newlines))

        let get = try sandbox.run(["get", "users/alice"])
        #expect(get.exitCode == 0, "\(get.stderr)")
        #expect(get.stderr.isEmpty)
        expectIdentical(try fields(of: get.stdout), try fields(of: Self.everyTypeJSON))
        let document = try JSONValue(parsing: get.stdout)
        #expect(document["name"] == .string("projects/demo-hearth/databases/(default)/documents/users/alice"))
        #expect(document["updateTime"] == .string(updateTime.description))
        #expect(document["createTime"] == .string(updateTime.description))
        #expect(get.stdout.contains(#""integerValue": "-9223372036854775808""#))
        #expect(get.stdout.hasPrefix("{\n  \"createTime\": "))
    }

    @Test func setReadsStandardInputAndAcceptsWhatGetPrints() throws {
        let sandbox = try Sandbox()
        let set = try sandbox.run(["set", "users/alice", "-"], stdin: Self.everyTypeJSON)
        #expect(set.exitCode == 0, "\(set.stderr)")
        let original = try sandbox.run(["get", "users/alice"]).stdout

        let copy = try sandbox.run(["set", "users/copy", "-"], stdin: original)
        #expect(copy.exitCode == 0, "\(copy.stderr)")
        let copied = try sandbox.run(["get", "users/copy"]).stdout
        expectIdentical(try fields(of: copied), try fields(of: original))
        #expect(
            try JSONValue(parsing: copied)["name"]
                == .string("projects/demo-hearth/databases/(default)/documents/users/copy"))
    }

    @Test func mergeReplacesOnlyTheGivenTopLevelFields() throws {
        let sandbox = try Sandbox()
        let initial = #"{"a": {"integerValue": "1"}, "b": {"mapValue": {"fields": {"x": {"integerValue": "1"}}}}}"#
        #expect(try sandbox.run(["set", "d/1", initial]).exitCode == 0)
        let patch = #"{"b": {"mapValue": {"fields": {"y": {"integerValue": "2"}}}}, "c": {"booleanValue": true}}"#
        let merge = try sandbox.run(["set", "d/1", patch, "--merge"])
        #expect(merge.exitCode == 0, "\(merge.stderr)")
        expectIdentical(try fields(of: try sandbox.run(["get", "d/1"]).stdout), ["a": 1, "b": ["y": 2], "c": true])

        #expect(try sandbox.run(["set", "d/1", #"{"z": {"nullValue": null}}"#]).exitCode == 0)
        expectIdentical(try fields(of: try sandbox.run(["get", "d/1"]).stdout), ["z": nil])
    }

    @Test func listPrintsTheCollectionsDocumentsInOrder() throws {
        let sandbox = try Sandbox()
        for (path, number) in [("users/b", 2), ("users/a", 1), ("users/c", 3), ("users/a/posts/p", 4), ("other/x", 5)] {
            #expect(try sandbox.run(["set", path, #"{"n": {"integerValue": "\#(number)"}}"#]).exitCode == 0)
        }
        let list = try sandbox.run(["list", "users"])
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(
            list.stdout == """
                users/a {"n":{"integerValue":"1"}}
                users/b {"n":{"integerValue":"2"}}
                users/c {"n":{"integerValue":"3"}}

                """)
        #expect(try sandbox.run(["list", "users", "--names-only", "--limit", "2"]).stdout == "users/a\nusers/b\n")
        #expect(try sandbox.run(["list", "users/a/posts", "--names-only"]).stdout == "users/a/posts/p\n")
        let empty = try sandbox.run(["list", "nothing"])
        #expect(empty.exitCode == 0 && empty.stdout.isEmpty)
    }

    @Test func listPagesThroughLargeCollections() throws {
        let sandbox = try Sandbox()
        let paths = (0..<1203).map { "items/" + String(repeating: "0", count: 4 - String($0).count) + String($0) }
        let store = try DocumentStore(path: sandbox.dataFolder.path)
        let database = try DatabaseID(project: "demo-hearth")
        for start in stride(from: 0, to: paths.count, by: 400) {
            let chunk = paths[start..<min(start + 400, paths.count)]
            try store.commit(try chunk.map { .set(try DocumentName(database, $0), fields: [:]) })
        }
        try store.close()

        let all = try sandbox.run(["list", "items", "--names-only"])
        #expect(all.exitCode == 0, "\(all.stderr)")
        #expect(all.stdout == paths.map { $0 + "\n" }.joined())
        let limited = try sandbox.run(["list", "items", "--names-only", "--limit", "501"])
        #expect(limited.stdout == paths.prefix(501).map { $0 + "\n" }.joined())
    }

    @Test func deleteRemovesTheDocument() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run(["set", "users/alice", "{}"]).exitCode == 0)
        let delete = try sandbox.run(["delete", "users/alice"])
        #expect(delete.exitCode == 0, "\(delete.stderr)")
        #expect(delete.stdout.isEmpty)
        let get = try sandbox.run(["get", "users/alice"])
        #expect(get.exitCode == 1)
        #expect(get.stderr == "Error: Document not found: users/alice\n")
        #expect(try sandbox.run(["delete", "users/alice"]).exitCode == 0)
    }

    @Test func missingDocumentIsAnErrorWithoutUsage() throws {
        let sandbox = try Sandbox()
        let get = try sandbox.run(["get", "users/nobody"])
        #expect(get.exitCode == 1)
        #expect(get.stdout.isEmpty)
        #expect(get.stderr == "Error: Document not found: users/nobody\n")
    }

    @Test func projectsAndDatabasesAreSeparate() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run(["set", "users/alice", "{}", "--project", "demo-a"]).exitCode == 0)
        #expect(try sandbox.run(["get", "users/alice", "--project", "demo-a"]).exitCode == 0)
        #expect(try sandbox.run(["get", "users/alice", "--project", "demo-b"]).exitCode == 1)
        #expect(try sandbox.run(["get", "users/alice", "--project", "demo-a", "--database", "other"]).exitCode == 1)
        #expect(try sandbox.run(["get", "users/alice"]).exitCode == 1)
    }
}
