import DocumentModel
import Foundation
import Testing

@testable import SecurityRules

/// A deterministic pseudo-random generator (SplitMix64), so a failing input can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random inputs for the parser and the evaluator: token streams, mutated rulesets, and
/// generated rulesets with random expressions evaluated against random requests. Nothing may
/// crash or hang. `HEARTH_RULES_FUZZ_COUNT` sets the number of inputs (20,000 by default).
@Suite struct FuzzTests {
    static var count: Int {
        ProcessInfo.processInfo.environment["HEARTH_RULES_FUZZ_COUNT"].flatMap(Int.init) ?? 20_000
    }

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

    static func tokenStream(_ random: inout SplitMix) -> String {
        let length = Int.random(in: 0...60, using: &random)
        var text = ""
        for _ in 0..<length {
            text += vocabulary.randomElement(using: &random)!
            if Bool.random(using: &random) { text += " " }
        }
        return text
    }

    static let seeds: [String] = [
        try! String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("rules/firestore.rules"), encoding: .utf8),
        Fixture.rules("""
                function f(a, b) { let c = a + b; return c > 1 || b.size() > 0; }
                match /t/{id} { allow read, write: if f(request.resource.data.n, [1]) && resource.data.x in [1, 'a'];
                  match /sub/{rest=**} { allow get: if rest[0] == 'x' && exists(/databases/$(database)/documents/t/$(id)); } }
            """),
    ]

    static func mutate(_ text: String, _ random: inout SplitMix) -> String {
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
                let piece = vocabulary.randomElement(using: &random)!.unicodeScalars
                scalars.insert(contentsOf: piece, at: index)
            }
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    /// A random expression of the rules language, up to `depth` deep.
    static func expression(_ random: inout SplitMix, depth: Int) -> String {
        let leaves = [
            "1", "0", "-3", "2.5", "'abc'", "''", "true", "false", "null", "[1, 2, 'a']", "{'k': 1, 'j': [true]}", "x",
            "request.auth.uid", "request.resource.data", "request.resource.data.n", "resource.data", "resource.data.s",
            "request.time", "request.path", "/databases/$(database)/documents/t/$(id)", "id", "b'\\x00\\x01'",
            "duration.value(1, 'h')", "latlng.value(1, 2)", "request.query.limit", "path('a/b')",
        ]
        guard depth > 0, Int.random(in: 0..<4, using: &random) != 0 else { return leaves.randomElement(using: &random)! }
        let a = expression(&random, depth: depth - 1)
        let b = expression(&random, depth: depth - 1)
        let c = expression(&random, depth: depth - 1)
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

    static func ruleset(_ random: inout SplitMix) -> String {
        let condition = expression(&random, depth: 4)
        let helper = expression(&random, depth: 3)
        return Fixture.rules("""
                function f(x, y) { let z = \(helper); return z == x || y; }
                match /t/{id} {
                  allow read, write: if \(condition);
                  match /{rest=**} { allow list: if \(expression(&random, depth: 3)); }
                }
            """)
    }

    static func randomValue(_ random: inout SplitMix, depth: Int = 2) -> Value {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 7), using: &random) {
        case 0: return .null
        case 1: return .boolean(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: -5...5, using: &random))
        case 3: return .double(Double.random(in: -2...2, using: &random))
        case 4: return .string(["a", "abc", "", "é😀"].randomElement(using: &random)!)
        case 5: return .timestamp(Fixture.time)
        case 6: return .bytes([0, 255])
        case 7: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(&random, depth: depth - 1) })
        default:
            return .map(["k": randomValue(&random, depth: depth - 1), "n": .integer(1)])
        }
    }

    static func requests(_ random: inout SplitMix) -> [RulesRequest] {
        let data: MapValue = ["n": randomValue(&random), "s": randomValue(&random), "x": randomValue(&random)]
        let filter = RulesQuery.Filter.or([
            .field(try! FieldPath("x"), .in, [1, 2]), .field(try! FieldPath("n"), .greaterThan, 0),
        ])
        return [
            Fixture.request(.get, "t/a", resource: data),
            Fixture.request(.create, "t/b", uid: nil, newData: data),
            Fixture.request(.update, "t/c", resource: data, newData: data),
            Fixture.request(.list, "t", query: RulesQuery(filter: filter, limit: 5)),
            Fixture.request(.list, "t/a/u", query: RulesQuery(collectionGroup: true)),
        ]
    }

    /// Evaluates every request, checking each decision is made within the time bound.
    static func evaluateAll(_ ruleset: Ruleset, _ random: inout SplitMix) {
        let documents = InMemoryDocuments(before: [Fixture.document("t/a", ["n": 1])])
        for request in requests(&random) {
            let start = ContinuousClock.now
            _ = ruleset.evaluate(request, lookup: documents).message
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }

    @Test func randomInputsNeverCrashOrHang() {
        var random = SplitMix(state: 0x5EED)
        let total = FuzzTests.count
        var compiled = 0
        for index in 0..<total {
            let source: String
            switch index % 4 {
            case 0: source = FuzzTests.tokenStream(&random)
            case 1: source = FuzzTests.mutate(FuzzTests.seeds.randomElement(using: &random)!, &random)
            default: source = FuzzTests.ruleset(&random)
            }
            let diagnostics = Ruleset.check(source: source)
            for diagnostic in diagnostics.prefix(3) { _ = diagnostic.rendered }
            // Evaluating every compiled input costs most; a share of them is enough.
            guard index % 4 >= 2 || index % 16 == 1, let ruleset = try? Ruleset(source: source) else { continue }
            compiled += 1
            FuzzTests.evaluateAll(ruleset, &random)
        }
        #expect(compiled > total / 4)
    }

    @Test func deepAndLongInputsAreBounded() throws {
        let deepParens = String(repeating: "(", count: 100_000) + "true" + String(repeating: ")", count: 100_000)
        let deepNot = String(repeating: "!", count: 100_000) + "true"
        let longChain = Array(repeating: "true", count: 50_000).joined(separator: " && ")
        let longMembers = "request" + String(repeating: ".a", count: 50_000)
        let deepLists = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        let deepTernary = Array(repeating: "true ? 1 :", count: 20_000).joined(separator: " ") + " 2"
        for condition in [deepParens, deepNot, longChain, longMembers, deepLists, deepTernary] {
            let diagnostics = Ruleset.check(source: Fixture.rules("    match /a/{b} { allow read: if \(condition); }"))
            #expect(diagnostics.contains { $0.message == "Expression is too complex to evaluate safely." })
        }
        let deepMatches = String(repeating: "match /a/{b} { ", count: 5000) + "allow read;" + String(repeating: " }", count: 5000)
        _ = Ruleset.check(source: Fixture.rules(deepMatches))
    }

    @Test func exponentialWorkIsCutByTheExpressionLimit() throws {
        var functions = "    function f0(x) { return x == 1 || x == 2; }\n"
        for index in 1...15 { functions += "    function f\(index)(x) { return f\(index - 1)(x) || f\(index - 1)(x); }\n" }
        let ruleset = try Fixture.ruleset(Fixture.rules(functions + "    match /a/{b} { allow get: if f15(3); }"))
        let start = ContinuousClock.now
        let decision = ruleset.evaluate(Fixture.request(.get, "a/x"))
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(decision.message.contains("maximum of 1000 expressions"))
        // Values cannot grow without bound either.
        var doubling = "    function d0(s) { return s + s; }\n"
        for index in 1...19 { doubling += "    function d\(index)(s) { return d\(index - 1)(d\(index - 1)(s)); }\n" }
        let growth = try Fixture.ruleset(Fixture.rules(doubling + "    match /a/{b} { allow get: if d19('abcdefgh').size() > 0; }"))
        #expect(!growth.evaluate(Fixture.request(.get, "a/x")).allowed)
    }
}
