import DocumentModel
import SecurityRules

/// A generator of random inputs for the rules parser and evaluator, for robustness tests and
/// tools: random token streams, mutations of seed rulesets, and generated rulesets with random
/// expressions, each compiled ruleset evaluated against random requests. Nothing may crash or
/// hang; the report gives the slowest decision. Inputs depend only on the seed, so a failure can
/// be replayed.
///
/// ```swift
/// var fuzzer = RulesFuzzer(seed: 0x5EED, seedRulesets: [projectRules])
/// let report = fuzzer.run(count: 1_000_000)
/// print(report.inputs, report.slowestDecision)
/// ```
struct RulesFuzzer: Sendable {
    /// What a run did.
    struct Report: Sendable, Hashable {
        /// The inputs checked (each parsed and compiled, with its diagnostics rendered).
        var inputs = 0
        /// The inputs that compiled and were evaluated.
        var evaluatedRulesets = 0
        /// The decisions made.
        var decisions = 0
        /// The longest time one decision took.
        var slowestDecision: Duration = .zero
    }

    private var random: SplitMix64
    private let seeds: [String]

    /// A fuzzer whose inputs follow from `seed`; `seedRulesets` are mutated besides the
    /// built-in seed.
    init(seed: UInt64, seedRulesets: [String] = []) {
        random = SplitMix64(state: seed)
        seeds = seedRulesets + [RulesFuzzer.builtInSeed]
    }

    /// Checks `count` inputs, calling `progress` after each 10,000.
    mutating func run(count: Int, progress: ((Report) -> Void)? = nil) -> Report {
        var report = Report()
        let documents = InMemoryDocuments(before: [RulesFuzzer.document("t/a", ["n": 1])])
        let clock = ContinuousClock()
        for index in 0..<count {
            let source: String
            switch index % 4 {
            case 0: source = tokenStream()
            case 1: source = mutate(seeds[Int.random(in: 0..<seeds.count, using: &random)])
            default: source = ruleset()
            }
            let diagnostics = Ruleset.check(source: source)
            for diagnostic in diagnostics.prefix(3) { _ = diagnostic.rendered }
            report.inputs += 1
            // Evaluating every compiled input costs most; a share of them is enough.
            if index % 4 >= 2 || index % 16 == 1, let ruleset = try? Ruleset(source: source) {
                report.evaluatedRulesets += 1
                for request in requests() {
                    var message = ""
                    let elapsed = clock.measure { message = ruleset.evaluate(request, lookup: documents).message }
                    _ = message
                    report.decisions += 1
                    report.slowestDecision = max(report.slowestDecision, elapsed)
                }
            }
            if (index + 1) % 10_000 == 0 { progress?(report) }
        }
        return report
    }

    // MARK: Inputs

    static let vocabulary: [String] = [
        "service", "cloud.firestore", "match", "allow", "read", "write", "get", "list", "create", "update", "delete",
        "if", "function", "return", "let", "true", "false", "null", "in", "is", "rules_version", "=", "'2'", "'1'",
        "{", "}", "(", ")", "[", "]", ",", ";", ":", ".", "?", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "!", "+",
        "-", "*", "/", "%", "++", "--", "$(", "/databases", "/{database}", "/documents", "/users", "/{userId}",
        "/{rest=**}", "{x=**}", "request", "resource", "auth", "uid", "data", "keys", "size", "hasAll", "matches",
        "math", "abs", "timestamp", "duration", "value", "'a'", "\"b\"", "'\\u00e9'", "'\\x41'", "b'\\xff'", "0", "1",
        "42", "1.5", ".5", "9223372036854775807", "9223372036854775808", "//c\n", "/*c*/", "/*", "'", "\"", "é", "😀",
        "\\", "`", "#", "@", "x", "y", "f", "g", "string", "int", "map", "path", "number", "/a/b", "/$(x)", "**",
        "\n", " ", "\t", "getAfter", "exists", "debug", "toSet", "diff", "affectedKeys", "split", "replace",
    ]

    static let builtInSeed = wrap(
        """
            function f(a, b) { let c = a + b; return c > 1 || b.size() > 0; }
            match /t/{id} { allow read, write: if f(request.resource.data.n, [1]) && resource.data.x in [1, 'a'];
              match /sub/{rest=**} { allow get: if rest[0] == 'x' && exists(/databases/$(database)/documents/t/$(id)); } }
        """)

    /// Rules with `body` inside the documents match.
    static func wrap(_ body: String) -> String {
        "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n" + body + "\n  }\n}\n"
    }

    mutating func tokenStream() -> String {
        let length = Int.random(in: 0...60, using: &random)
        var text = ""
        for _ in 0..<length {
            text += RulesFuzzer.vocabulary.randomElement(using: &random)!
            if Bool.random(using: &random) { text += " " }
        }
        return text
    }

    mutating func mutate(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<Int.random(in: 1...8, using: &random) where !scalars.isEmpty {
            let index = Int.random(in: 0..<scalars.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: scalars.remove(at: index)
            case 1: scalars.insert(scalars[Int.random(in: 0..<scalars.count, using: &random)], at: index)
            case 2:
                let end = min(scalars.count, index + Int.random(in: 1...20, using: &random))
                scalars.insert(contentsOf: scalars[index..<end], at: index)
            default:
                let piece = RulesFuzzer.vocabulary.randomElement(using: &random)!.unicodeScalars
                scalars.insert(contentsOf: piece, at: index)
            }
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    /// A random expression of the rules language, up to `depth` deep.
    mutating func expression(depth: Int) -> String {
        let leaves = [
            "1", "0", "-3", "2.5", "'abc'", "''", "true", "false", "null", "[1, 2, 'a']", "{'k': 1, 'j': [true]}", "x",
            "request.auth.uid", "request.resource.data", "request.resource.data.n", "resource.data", "resource.data.s",
            "request.time", "request.path", "/databases/$(database)/documents/t/$(id)", "id", "b'\\x00\\x01'",
            "duration.value(1, 'h')", "latlng.value(1, 2)", "request.query.limit", "path('a/b')",
        ]
        guard depth > 0, Int.random(in: 0..<4, using: &random) != 0 else { return leaves.randomElement(using: &random)! }
        let a = expression(depth: depth - 1)
        let b = expression(depth: depth - 1)
        let c = expression(depth: depth - 1)
        let methods = [
            "size()", "keys()", "values()", "toSet()", "hasAll(\(b))", "hasAny(\(b))", "hasOnly(\(b))", "join(',')",
            "split('a')", "matches('a.*')", "replace('a', 'b')", "lower()", "upper()", "trim()", "get('k', \(b))",
            "diff(\(b))", "affectedKeys()", "addedKeys()", "union(\(b))", "difference(\(b))", "toMillis()",
            "seconds()", "toBase64()", "distance(\(b))", "removeAll(\(b))", "concat(\(b))", "bind(\(b))",
        ]
        switch Int.random(in: 0..<14, using: &random) {
        case 0: return "(\(a) && \(b))"
        case 1: return "(\(a) || \(b))"
        case 2: return "!\(a)"
        case 3: return "(\(a) \(["+", "-", "*", "/", "%"].randomElement(using: &random)!) \(b))"
        case 4: return "(\(a) \(["==", "!=", "<", "<=", ">", ">="].randomElement(using: &random)!) \(b))"
        case 5: return "(\(a) in \(b))"
        case 6: return "(\(a) is \(["int", "string", "map", "list", "number", "path", "bool"].randomElement(using: &random)!))"
        case 7: return "(\(a) ? \(b) : \(c))"
        case 8: return "\(a)[\(b)]"
        case 9: return "\(a)[\(b):\(c)]"
        case 10: return "\(a).\(methods.randomElement(using: &random)!)"
        case 11: return "f(\(a), \(b))"
        case 12: return "[\(a), \(b)]"
        default:
            return ["int(\(a))", "string(\(a))", "float(\(a))", "math.abs(\(a))", "hashing.md5(\(a))", "debug(\(a))",
                "exists(\(a))", "get(\(a)).data", "getAfter(\(a))", "timestamp.value(\(a))"].randomElement(using: &random)!
        }
    }

    mutating func ruleset() -> String {
        let condition = expression(depth: 4)
        let helper = expression(depth: 3)
        let listCondition = expression(depth: 3)
        return RulesFuzzer.wrap(
            """
                function f(x, y) { let z = \(helper); return z == x || y; }
                match /t/{id} {
                  allow read, write: if \(condition);
                  match /{rest=**} { allow list: if \(listCondition); }
                }
            """)
    }

    mutating func randomValue(depth: Int = 2) -> Value {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 7), using: &random) {
        case 0: return .null
        case 1: return .boolean(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: -5...5, using: &random))
        case 3: return .double(Double.random(in: -2...2, using: &random))
        case 4: return .string(["a", "abc", "", "é😀"].randomElement(using: &random)!)
        case 5: return .timestamp(RulesFuzzer.time)
        case 6: return .bytes([0, 255])
        case 7: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(depth: depth - 1) })
        default: return .map(["k": randomValue(depth: depth - 1), "n": .integer(1)])
        }
    }

    /// A get, a create, an update, a list with an OR filter and a collection-group list.
    mutating func requests() -> [RulesRequest] {
        let data: MapValue = ["n": randomValue(), "s": randomValue(), "x": randomValue()]
        let filter = RulesQuery.Filter.or([
            .field(try! FieldPath("x"), .in, [1, 2]), .field(try! FieldPath("n"), .greaterThan, 0),
        ])
        return [
            RulesFuzzer.request(.get, "t/a", resource: data),
            RulesFuzzer.request(.create, "t/b", signedIn: false, newData: data),
            RulesFuzzer.request(.update, "t/c", resource: data, newData: data),
            RulesFuzzer.request(.list, "t", query: RulesQuery(filter: filter, limit: 5)),
            RulesFuzzer.request(.list, "t/a/u", query: RulesQuery(collectionGroup: true)),
        ]
    }

    static let database = try! DatabaseID(project: "demo-rules")
    static let time = try! Timestamp(seconds: 1_700_000_000, nanoseconds: 123_000_000)

    static func document(_ path: String, _ fields: MapValue) -> Document {
        Document(name: try! DocumentName(database, path), fields: fields, createTime: time, updateTime: time)
    }

    static func request(
        _ method: RulesMethod, _ path: String, signedIn: Bool = true, resource: MapValue? = nil,
        newData: MapValue? = nil, query: RulesQuery? = nil
    ) -> RulesRequest {
        RulesRequest(
            database: database, path: try! ResourcePath(path), method: method,
            auth: signedIn ? RulesAuth(uid: "alice", token: ["sub": "alice", "user_id": "alice"]) : nil, time: time,
            resource: resource.map { document(path, $0) }, newResource: newData.map { document(path, $0) },
            query: query, accessScope: method == .list ? .multipleDocuments : .singleDocument)
    }
}
