import DocumentModel
import DocumentStore
import FirestoreWire
import Foundation
import Testing

/// The differential query cases recorded from Google's Firestore emulator
/// (`Tests/QueryConformance/cases/seed-*.json`, made by `record.py`), replayed through Hearth's
/// query engine in-process: every query must give the same documents in the same order (and the
/// same projected fields), the same aggregation results, or an error with the same status code.
/// No emulator or Python is needed; see `Tests/QueryConformance/README.md` for the format and for
/// recording new cases.
@Suite("Query conformance with Google's emulator")
struct QueryConformanceTests {
    /// The folder of the recorded cases, found from this file's path.
    static let casesFolder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("QueryConformance").appendingPathComponent("cases")

    /// The recorded case files, by name.
    static let caseFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: casesFolder.path)) ?? []
        return names.filter { $0.hasPrefix("seed-") && $0.hasSuffix(".json") }.sorted()
    }()

    @Test("The recorded cases are there")
    func casesExist() {
        #expect(!Self.caseFiles.isEmpty, "no recorded cases in \(Self.casesFolder.path)")
    }

    @Test("Hearth answers every recorded query as Google's emulator did", arguments: caseFiles)
    func recordedCases(file: String) throws {
        let data = try Data(contentsOf: Self.casesFolder.appendingPathComponent(file))
        let testCase = try JSONValue(parsing: [UInt8](data))
        let run = try ConformanceRun(testCase)
        defer { run.close() }
        var passed = 0
        var failed = 0
        for query in try ConformanceRun.array(testCase["queries"]) {
            guard let expected = query["expected"] else { continue }
            let id = (try? ConformanceRun.string(query["id"])) ?? "?"
            let actual = run.run(query)
            guard let mismatch = ConformanceRun.mismatch(expected: expected, actual: actual) else {
                passed += 1
                continue
            }
            if mismatch == ConformanceRun.skipped { continue }
            failed += 1
            Issue.record(
                """
                \(file) \(id): \(mismatch)
                  query:    \(ConformanceRun.describe(query))
                  expected: \(ConformanceRun.describe(expected))
                  actual:   \(actual.description)
                """)
        }
        #expect(failed == 0, "\(file): \(passed) passed, \(failed) failed")
    }
}

/// What Hearth answered to one query.
enum ConformanceOutcome: CustomStringConvertible {
    case documents([Document])
    case aggregation([(String, Value)])
    case error(FirestoreError)

    var description: String {
        switch self {
        case .documents(let documents):
            let names = documents.map { "\"\($0.name.path)\"" }.joined(separator: ", ")
            return "documents [\(names)]"
        case .aggregation(let fields):
            return "aggregation " + JSONValue.object(fields.map { JSONValue.Member($0.0, RESTJSON.encode($0.1)) })
                .serialized()
        case .error(let error):
            return "error \(error.code.name): \(error.message)"
        }
    }
}

/// One case file's dataset loaded into a fresh store, and its queries run against it.
final class ConformanceRun {
    static let skipped = "skipped"
    /// Relative tolerance for doubles in aggregation results (the order of summation may differ).
    static let doubleTolerance = 1e-9

    let folder: String
    let store: DocumentStore
    let database: DatabaseID

    init(_ testCase: JSONValue) throws {
        folder = NSTemporaryDirectory() + "hearth-query-conformance-" + UUID().uuidString
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        store = try DocumentStore(path: folder, configuration: configuration)
        database = try DatabaseID(
            project: try Self.string(testCase["project"]),
            database: try Self.string(testCase["database"] ?? .string(DatabaseID.defaultDatabase)))
        var writes: [Write] = []
        for document in try Self.array(testCase["documents"]) {
            let name = try DocumentName(database, try Self.string(document["path"]))
            writes.append(.set(name, fields: try RESTJSON.decodeFields(document["fields"] ?? .object([]))))
            if writes.count == 200 {
                _ = try store.commit(writes)
                writes.removeAll()
            }
        }
        if !writes.isEmpty { _ = try store.commit(writes) }
    }

    func close() {
        try? store.close()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs one query of the case through Hearth's engine.
    func run(_ query: JSONValue) -> ConformanceOutcome {
        do {
            let parentText = try Self.string(query["parent"] ?? .string(""))
            let parent = parentText.isEmpty ? ResourcePath.root : try ResourcePath(parentText)
            if let body = query["structuredAggregationQuery"] {
                let aggregation = try RESTJSON.decodeAggregationQuery(body, database: database, parent: parent)
                let result = try store.runAggregation(aggregation, readTime: nil)
                return .aggregation(result.fields.map { ($0.key, $0.value) })
            }
            guard let body = query["structuredQuery"] else {
                throw FirestoreError.invalidArgument("the case has no structuredQuery")
            }
            let structured = try RESTJSON.decodeQuery(body)
            let result = try store.runQuery(
                Query(database: database, parent: parent, structured: structured), readTime: nil)
            // limit-to-last: the clients reverse what the (reversed) query returned.
            return .documents(query["limitToLast"] == nil ? result.documents : result.documents.reversed())
        } catch let error as FirestoreError {
            return .error(error)
        } catch {
            return .error(FirestoreError(.unknown, String(describing: error)))
        }
    }

    /// Why `actual` differs from the recorded `expected` result, `skipped` for a query on which
    /// Google's emulator itself failed, or nil when they agree.
    static func mismatch(expected: JSONValue, actual: ConformanceOutcome) -> String? {
        if let error = expected["error"] {
            let code = (try? string(error["code"])) ?? "?"
            if code == "UNKNOWN" || code == "INTERNAL" { return skipped }
            // A difference kept on purpose (Docs/Compatibility.md): Google's emulator refuses a
            // descending scan of names alone; production Firestore and Hearth answer it.
            let message = (try? string(error["message"])) ?? ""
            if code == "FAILED_PRECONDITION", message.contains("descending key scans") {
                // Answered, or refused for another reason the emulator would reach next.
                if case .error(let got) = actual, got.message.contains("descending") {
                    return "refused a descending name scan: \(got.message)"
                }
                return nil
            }
            guard case .error(let got) = actual else { return "expected error \(code), got a result" }
            return got.code.name == code ? nil : "error code \(got.code.name), expected \(code)"
        }
        if case .error(let got) = actual { return "unexpected error \(got.code.name)" }
        if let aggregation = expected["aggregation"] {
            guard case .aggregation(let fields) = actual else { return "expected an aggregation result" }
            guard case .object(let members) = aggregation else { return "bad expected aggregation" }
            let names = Set(members.map(\.key))
            guard names == Set(fields.map(\.0)), members.count == fields.count else {
                return "aggregation names \(fields.map(\.0).sorted()), expected \(names.sorted())"
            }
            for member in members {
                guard let want = try? RESTJSON.decodeValue(member.value),
                    let got = fields.first(where: { $0.0 == member.key })?.1,
                    sameAggregate(want, got)
                else { return "aggregation '\(member.key)' differs" }
            }
            return nil
        }
        guard case .documents(let documents) = actual else { return "expected documents" }
        let names = documents.map { $0.name.path.description }
        let wanted = ((try? array(expected["documents"])) ?? []).compactMap { try? string($0) }
        if names != wanted {
            let missing = wanted.filter { !names.contains($0) }.count
            let extra = names.filter { !wanted.contains($0) }.count
            return missing == 0 && extra == 0
                ? "same documents, different order" : "missing \(missing), extra \(extra) documents"
        }
        if let fields = expected["fields"] {
            let wantedFields = (try? array(fields)) ?? []
            guard wantedFields.count == documents.count else { return "projected fields missing" }
            for (want, document) in zip(wantedFields, documents) {
                guard let map = try? RESTJSON.decodeFields(want),
                    Value.map(map).isIdentical(to: .map(document.fields))
                else { return "projected fields of \(document.name.path) differ" }
            }
        }
        return nil
    }

    static func sameAggregate(_ want: Value, _ got: Value) -> Bool {
        if want.isIdentical(to: got) { return true }
        if case .double(let x) = want, case .double(let y) = got, x.isFinite, y.isFinite {
            return abs(x - y) <= doubleTolerance * max(abs(x), abs(y))
        }
        return false
    }

    static func describe(_ json: JSONValue) -> String {
        guard case .object(let members) = json else { return json.serialized() }
        return JSONValue.object(members.filter { $0.key != "expected" && $0.key != "id" }).serialized()
    }

    static func string(_ json: JSONValue?) throws -> String {
        guard case .string(let text)? = json else { throw FirestoreError.invalidArgument("expected a string") }
        return text
    }

    static func array(_ json: JSONValue?) throws -> [JSONValue] {
        guard case .array(let elements)? = json else { throw FirestoreError.invalidArgument("expected an array") }
        return elements
    }
}
