import DocumentModel
import FirestoreWire
import Foundation
import Testing

@testable import SecurityRules

/// Replays the conformance corpus (`Tests/SecurityRulesConformance/cases`, verdicts recorded
/// from Google's emulator) against the evaluator directly, playing the store's part: seeding,
/// applying the writes of a commit (masks and transforms) to build `request.resource` and the
/// `getAfter` view, and choosing create or update from the precondition.
@Suite struct ConformanceTests {
    static let casesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SecurityRulesConformance/cases")

    struct Case {
        let name: String
        let json: JSONValue
    }

    static func loadCases() -> [Case] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: casesDirectory.path)) ?? []
        var cases: [Case] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: casesDirectory.appendingPathComponent(file).path),
                let json = try? JSONValue(parsing: Array(data)), case .array(let items) = json
            else { continue }
            for item in items {
                if case .string(let name) = item["name"] { cases.append(Case(name: name, json: item)) }
            }
        }
        return cases
    }

    static let database = try! DatabaseID(project: "demo-rules-conformance")
    static let time = try! Timestamp(seconds: 1_800_000_000, nanoseconds: 500_000_000)

    @Test func corpusVerdictsMatch() throws {
        let cases = ConformanceTests.loadCases()
        try #require(!cases.isEmpty, "no cases in \(ConformanceTests.casesDirectory.path)")
        var failures: [String] = []
        var messageMismatches = 0
        for testCase in cases {
            do {
                let (allowed, message) = try run(testCase.json)
                guard case .string(let verdict) = testCase.json["expected"]?["verdict"] else { continue }
                if allowed != (verdict == "allow") {
                    failures.append("\(testCase.name): expected \(verdict), got \(allowed ? "allow" : "deny") \(message)")
                } else if case .string(let expectedMessage) = testCase.json["expected"]?["message"],
                    !allowed, expectedMessage != message
                {
                    messageMismatches += 1
                    if ProcessInfo.processInfo.environment["HEARTH_RULES_SHOW_MESSAGES"] != nil {
                        print("MESSAGE \(testCase.name)\n  expected: \(expectedMessage.debugDescription)\n  got:      \(message.debugDescription)")
                    }
                }
            } catch {
                failures.append("\(testCase.name): \(error)")
            }
        }
        print("conformance: \(cases.count) cases, \(failures.count) verdict mismatches, \(messageMismatches) other denial messages")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func string(_ json: JSONValue?) -> String? {
        if case .string(let text) = json { return text }
        return nil
    }

    func auth(_ json: JSONValue?) throws -> RulesAuth? {
        guard let json, case .object = json, let uid = string(json["uid"]) else { return nil }
        var token: MapValue = [
            "sub": .string(uid), "user_id": .string(uid), "iat": 1_700_000_000, "exp": 4_000_000_000,
            "auth_time": 1_700_000_000, "firebase": ["sign_in_provider": "custom"],
        ]
        if case .object(let members) = json["token"] {
            for member in members { token[member.key] = try plain(member.value) }
        }
        return RulesAuth(uid: uid, token: token)
    }

    /// A claim: plain JSON to a value.
    func plain(_ json: JSONValue) throws -> Value {
        switch json {
        case .null: return .null
        case .bool(let flag): return .boolean(flag)
        case .number(let text): return Int64(text).map(Value.integer) ?? .double(Double(text) ?? 0)
        case .string(let text): return .string(text)
        case .array(let items): return .array(try items.map(plain))
        case .object(let members):
            return .map(MapValue(uniqueKeysWithValues: try members.map { ($0.key, try plain($0.value)) }))
        }
    }

    func run(_ json: JSONValue) throws -> (Bool, String) {
        guard let rules = string(json["rules"]) else { throw Failure(description: "no rules") }
        let ruleset = try Ruleset(source: rules, fileName: "firestore.rules")
        var documents: [DocumentName: Document] = [:]
        if case .object(let seeded) = json["documents"] {
            for member in seeded {
                let name = try DocumentName(ConformanceTests.database, member.key)
                documents[name] = Document(
                    name: name, fields: try RESTJSON.decodeFields(member.value), createTime: ConformanceTests.time,
                    updateTime: ConformanceTests.time)
            }
        }
        let request = json["request"]
        let auth = try auth(request?["auth"])
        switch string(request?["kind"]) {
        case "get":
            let path = try ResourcePath(string(request?["path"]) ?? "")
            let name = try DocumentName(ConformanceTests.database, path)
            let rulesRequest = RulesRequest(
                database: ConformanceTests.database, path: path, method: .get, auth: auth, time: ConformanceTests.time,
                resource: documents[name])
            let decision = ruleset.evaluate(rulesRequest, lookup: InMemoryDocuments(before: Array(documents.values)))
            return (decision.allowed, decision.message)
        case "query":
            return try query(ruleset, request, auth, documents)
        case "commit":
            return try commit(ruleset, request, auth, documents)
        default:
            throw Failure(description: "unknown kind")
        }
    }

    func query(_ ruleset: Ruleset, _ request: JSONValue?, _ auth: RulesAuth?, _ documents: [DocumentName: Document])
        throws -> (Bool, String)
    {
        let structured = request?["structuredQuery"]
        guard case .array(let from) = structured?["from"], let collection = string(from.first?["collectionId"]) else {
            throw Failure(description: "no from")
        }
        var group = false
        if case .bool(let all) = from.first?["allDescendants"] { group = all }
        let parent = string(request?["parent"]) ?? ""
        let path = try ResourcePath(parent.isEmpty ? collection : parent + "/" + collection)
        var query = RulesQuery(collectionGroup: group)
        if let filter = structured?["where"] { query.filter = try self.filter(filter) }
        if case .array(let orders) = structured?["orderBy"] {
            query.orderBy = try orders.map {
                RulesQuery.Order(
                    try FieldPath(string($0["field"]?["fieldPath"]) ?? ""),
                    string($0["direction"]) == "DESCENDING" ? .descending : .ascending)
            }
        }
        if case .number(let limit) = structured?["limit"] { query.limit = Int64(limit) }
        if case .number(let offset) = structured?["offset"] { query.offset = Int64(offset) ?? 0 }
        let rulesRequest = RulesRequest(
            database: ConformanceTests.database, path: path, method: .list, auth: auth, time: ConformanceTests.time,
            query: query, accessScope: .multipleDocuments)
        let decision = ruleset.evaluate(rulesRequest, lookup: InMemoryDocuments(before: Array(documents.values)))
        return (decision.allowed, decision.message)
    }

    func filter(_ json: JSONValue) throws -> RulesQuery.Filter {
        if let field = json["fieldFilter"] {
            let path = try FieldPath(string(field["field"]?["fieldPath"]) ?? "")
            let ops: [String: RulesQuery.FieldOperator] = [
                "EQUAL": .equal, "NOT_EQUAL": .notEqual, "LESS_THAN": .lessThan, "LESS_THAN_OR_EQUAL": .lessThanOrEqual,
                "GREATER_THAN": .greaterThan, "GREATER_THAN_OR_EQUAL": .greaterThanOrEqual, "IN": .in, "NOT_IN": .notIn,
                "ARRAY_CONTAINS": .arrayContains, "ARRAY_CONTAINS_ANY": .arrayContainsAny,
            ]
            guard let op = ops[string(field["op"]) ?? ""], let value = field["value"] else {
                throw Failure(description: "bad field filter")
            }
            return .field(path, op, try RESTJSON.decodeValue(value))
        }
        if let unary = json["unaryFilter"] {
            let path = try FieldPath(string(unary["field"]?["fieldPath"]) ?? "")
            let ops: [String: RulesQuery.UnaryOperator] = [
                "IS_NULL": .isNull, "IS_NAN": .isNaN, "IS_NOT_NULL": .isNotNull, "IS_NOT_NAN": .isNotNaN,
            ]
            guard let op = ops[string(unary["op"]) ?? ""] else { throw Failure(description: "bad unary filter") }
            return .unary(path, op)
        }
        if let composite = json["compositeFilter"], case .array(let parts) = composite["filters"] {
            let filters = try parts.map(filter)
            return string(composite["op"]) == "OR" ? .or(filters) : .and(filters)
        }
        throw Failure(description: "bad filter")
    }

    func commit(_ ruleset: Ruleset, _ request: JSONValue?, _ auth: RulesAuth?, _ documents: [DocumentName: Document])
        throws -> (Bool, String)
    {
        guard case .array(let writes) = request?["writes"] else { throw Failure(description: "no writes") }
        var state = documents
        var judged: [(RulesRequest, Document?)] = []
        for write in writes {
            if let deleted = string(write["delete"]) {
                let name = try DocumentName(ConformanceTests.database, deleted)
                judged.append(
                    (RulesRequest(
                        database: ConformanceTests.database, path: name.path, method: .delete, auth: auth,
                        time: ConformanceTests.time, resource: state[name]), nil))
                state[name] = nil
                continue
            }
            guard let update = write["update"], let path = string(update["name"]) else {
                throw Failure(description: "bad write")
            }
            let name = try DocumentName(ConformanceTests.database, path)
            let stored = state[name]
            var fields = try RESTJSON.decodeFields(update["fields"] ?? .object([]))
            if case .array(let mask) = write["updateMask"]?["fieldPaths"] {
                var merged = stored?.fields ?? MapValue()
                for entry in mask {
                    let field = try FieldPath(string(entry) ?? "")
                    if let value = fields.value(at: field) {
                        merged.setValue(value, at: field)
                    } else {
                        merged.removeValue(at: field)
                    }
                }
                fields = merged
            }
            if case .array(let transforms) = write["updateTransforms"] {
                for transform in transforms {
                    let field = try FieldPath(string(transform["fieldPath"]) ?? "")
                    if transform["setToServerValue"] != nil {
                        fields.setValue(.timestamp(ConformanceTests.time), at: field)
                    } else if let increment = transform["increment"] {
                        let by = try RESTJSON.decodeValue(increment)
                        switch (fields.value(at: field), by) {
                        case (.integer(let a)?, .integer(let b)): fields.setValue(.integer(a &+ b), at: field)
                        default: fields.setValue(by, at: field)
                        }
                    } else if case .array(let values) = transform["appendMissingElements"]?["values"] {
                        var elements = fields.value(at: field)?.arrayValue ?? []
                        for value in try values.map(RESTJSON.decodeValue) where !elements.contains(value) {
                            elements.append(value)
                        }
                        fields.setValue(.array(elements), at: field)
                    }
                }
            }
            let method: RulesMethod
            if case .bool(let exists) = write["currentDocument"]?["exists"] {
                method = exists ? .update : .create
            } else {
                method = stored == nil ? .create : .update
            }
            let after = Document(name: name, fields: fields, createTime: ConformanceTests.time, updateTime: ConformanceTests.time)
            var transforms = write["updateMask"] != nil
            if case .array(let list) = write["updateTransforms"], !list.isEmpty { transforms = true }
            judged.append(
                (RulesRequest(
                    database: ConformanceTests.database, path: name.path, method: method, auth: auth,
                    time: ConformanceTests.time, resource: stored, newResource: after, newResourceDependsOnStoredDocument: transforms),
                    after))
            state[name] = after
        }
        let lookup = InMemoryDocuments(before: Array(documents.values), after: Array(state.values))
        if judged.count == 1 {
            let decision = ruleset.evaluate(judged[0].0, lookup: lookup)
            return (decision.allowed, decision.message)
        }
        let requests = judged.map { judged -> RulesRequest in
            var request = judged.0
            request.accessScope = .multipleDocuments
            return request
        }
        let decision = ruleset.evaluate(batch: requests, lookup: lookup)
        return (decision.allowed, decision.message)
    }
}
