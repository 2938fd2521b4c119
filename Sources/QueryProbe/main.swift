// QueryProbe: runs the differential query cases (Tests/QueryConformance) through Hearth's own
// query API, for diff.py to compare with Google's emulator.
//
//     QueryProbe CASE.json
//
// CASE.json holds `project`, `database`, `documents` ([{"path": "items/d1", "fields": {REST JSON}}])
// and `queries` ([{"id", "parent", "structuredQuery" | "structuredAggregationQuery", "limitToLast"?}]).
// The probe loads the documents into a fresh DocumentStore in a temporary folder, runs every query
// and prints a JSON array with one entry per query, in order:
//
//     {"id": "s1-q000", "result": {"documents": ["items/d1", ...]}}           names in result order
//     {"id": ..., "result": {"documents": [...], "fields": [{...}, ...]}}     with `select`
//     {"id": ..., "result": {"aggregation": {"field_1": {"integerValue": "3"}}}}
//     {"id": ..., "result": {"error": {"code": "INVALID_ARGUMENT", "message": "..."}}}
//
// A query with `limitToLast` has its documents reversed, as the clients do. The exit status is 0
// when every query ran (whatever its result), 2 for unusable input. With QUERY_PROBE_TRACE=1 in the
// environment, each query's id goes to standard error before it runs (to find one that crashes).

import DocumentModel
import DocumentStore
import FirestoreWire
import Foundation

struct ProbeFailure: Error, CustomStringConvertible {
    let description: String
}

/// A member of a JSON object that must be there.
func member(_ json: JSONValue, _ key: String) throws -> JSONValue {
    guard let value = json[key] else { throw ProbeFailure(description: "missing member '\(key)'") }
    return value
}

func string(_ json: JSONValue?, _ what: String) throws -> String {
    guard case .string(let text)? = json else { throw ProbeFailure(description: "\(what) must be a string") }
    return text
}

func array(_ json: JSONValue?, _ what: String) throws -> [JSONValue] {
    guard case .array(let elements)? = json else { throw ProbeFailure(description: "\(what) must be an array") }
    return elements
}

/// Loads the case's documents into `store`, a few hundred writes per commit.
func seed(_ store: DocumentStore, _ database: DatabaseID, _ documents: [JSONValue]) throws {
    var writes: [Write] = []
    for document in documents {
        let path = try string(document["path"], "documents[].path")
        let fields = try RESTJSON.decodeFields(document["fields"] ?? .object([]))
        writes.append(.set(try DocumentName(database, path), fields: fields))
        if writes.count == 200 {
            _ = try store.commit(writes)
            writes.removeAll()
        }
    }
    if !writes.isEmpty { _ = try store.commit(writes) }
}

/// The result of one query in the case format.
func run(_ query: JSONValue, store: DocumentStore, database: DatabaseID) -> JSONValue {
    do {
        let parentText = try string(query["parent"] ?? .string(""), "parent")
        let parent = parentText.isEmpty ? ResourcePath.root : try ResourcePath(parentText)
        if let body = query["structuredAggregationQuery"] {
            let aggregation = try RESTJSON.decodeAggregationQuery(body, database: database, parent: parent)
            let result = try store.runAggregation(aggregation, readTime: nil)
            var members: [JSONValue.Member] = []
            for entry in result.fields {
                members.append(JSONValue.Member(entry.key, RESTJSON.encode(entry.value)))
            }
            return .object([JSONValue.Member("aggregation", .object(members))])
        }
        let body = try member(query, "structuredQuery")
        let structured = try RESTJSON.decodeQuery(body)
        let result = try store.runQuery(Query(database: database, parent: parent, structured: structured), readTime: nil)
        var documents = result.documents
        if query["limitToLast"] != nil { documents.reverse() }
        var members = [JSONValue.Member("documents", .array(documents.map { .string($0.name.path.description) }))]
        if structured.select != nil {
            members.append(JSONValue.Member("fields", .array(documents.map { RESTJSON.encode(fields: $0.fields) })))
        }
        return .object(members)
    } catch let error as FirestoreError {
        return errorResult(error.code.name, error.message)
    } catch {
        return errorResult("UNKNOWN", String(describing: error))
    }
}

func errorResult(_ code: String, _ message: String) -> JSONValue {
    .object([
        JSONValue.Member(
            "error", .object([JSONValue.Member("code", .string(code)), JSONValue.Member("message", .string(message))]))
    ])
}

func main() -> Int32 {
    let arguments = CommandLine.arguments
    guard arguments.count == 2 else {
        FileHandle.standardError.write(Data("usage: QueryProbe CASE.json\n".utf8))
        return 2
    }
    let folder = NSTemporaryDirectory() + "hearth-query-probe-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
        guard let data = FileManager.default.contents(atPath: arguments[1]) else {
            throw ProbeFailure(description: "cannot read \(arguments[1])")
        }
        let testCase = try JSONValue(parsing: [UInt8](data))
        let database = try DatabaseID(
            project: try string(testCase["project"], "project"),
            database: try string(testCase["database"] ?? .string(DatabaseID.defaultDatabase), "database"))
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: folder, configuration: configuration)
        defer { try? store.close() }
        try seed(store, database, try array(testCase["documents"], "documents"))
        var output: [JSONValue] = []
        let trace = ProcessInfo.processInfo.environment["QUERY_PROBE_TRACE"] == "1"
        for query in try array(testCase["queries"], "queries") {
            let id = try string(query["id"], "queries[].id")
            if trace { FileHandle.standardError.write(Data("QueryProbe: running \(id)\n".utf8)) }
            output.append(.object([JSONValue.Member("id", .string(id)), JSONValue.Member("result", run(query, store: store, database: database))]))
        }
        print(JSONValue.array(output).serialized())
        return 0
    } catch {
        FileHandle.standardError.write(Data("QueryProbe: \(error)\n".utf8))
        return 2
    }
}

exit(main())
