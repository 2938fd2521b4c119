import DocumentModel
import Foundation
import Testing

@testable import SecurityRules

/// Coverage counts and the report shapes (the emulator's `:ruleCoverage` JSON, and HTML).
@Suite struct CoverageTests {
    static let source = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /t/{id} {
              allow create: if request.resource.data.a == 2 || isX(id);
              allow read: if true;
            }
            function isX(v) {
              let y = v + 'z';
              return y == 'xz';
            }
          }
        }

        """

    func run() throws -> Ruleset {
        let ruleset = try Ruleset(source: CoverageTests.source, options: .init(recordsCoverage: true))
        _ = ruleset.evaluate(Fixture.request(.create, "t/x", newData: ["a": 1]))
        _ = ruleset.evaluate(Fixture.request(.create, "t/y", newData: ["a": 2]))
        _ = ruleset.evaluate(Fixture.request(.create, "t/z", newData: ["b": 2]))
        return ruleset
    }

    @Test func jsonHasTheEmulatorsShape() throws {
        let ruleset = try run()
        let text = try #require(ruleset.coverage).jsonReport()
        if ProcessInfo.processInfo.environment["HEARTH_RULES_PRINT_COVERAGE"] != nil { print(text) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let files = try #require((json["rules"] as? [String: Any])?["files"] as? [[String: Any]])
        #expect(files.first?["name"] as? String == "firestore.rules")
        #expect(files.first?["content"] as? String == CoverageTests.source)
        let report = try #require(json["report"] as? [[String: Any]])
        // Function bodies first (the `let` binding spans the body), then allow conditions.
        #expect(report.count == 2)
        let function = report[0]
        let functionPosition = try #require(function["sourcePosition"] as? [String: Int])
        #expect(functionPosition == ["line": 9, "column": 7, "currentOffset": 234, "endOffset": 272])
        let functionValues = try #require(function["values"] as? [[String: Any]])
        #expect(functionValues.count == 2)
        #expect((functionValues[0]["value"] as? [String: Bool]) == ["boolValue": true])
        #expect(functionValues[0]["count"] as? Int == 1)
        #expect((functionValues[1]["value"] as? [String: Bool]) == ["boolValue": false])
        #expect(functionValues[1]["count"] as? Int == 2)
        let condition = report[1]
        #expect((condition["sourcePosition"] as? [String: Int]) == [
            "line": 5, "column": 24, "currentOffset": 132, "endOffset": 169,
        ])
        let values = try #require(condition["values"] as? [[String: Any]])
        let undefined = values.compactMap { ($0["value"] as? [String: Any])?["undefined"] as? [String: Any] }
        #expect(undefined.first?["causeMessage"] as? String == "Property a is undefined on object.")
        // An error is reported at the first token of the expression raising it (`request`).
        #expect((undefined.first?["sourcePosition"] as? [String: Int]) == [
            "line": 5, "column": 24, "currentOffset": 132, "endOffset": 138,
        ])
        let children = try #require(condition["children"] as? [[String: Any]])
        #expect(children.count == 2)
        // The right side of `||` was skipped once (when the left was true): an empty value.
        let call = children[1]
        #expect((call["sourcePosition"] as? [String: Int])?["column"] == 56)
        let callValues = try #require(call["values"] as? [[String: Any]])
        #expect(callValues.contains { ($0["value"] as? [String: Any])?.isEmpty == true && $0["count"] as? Int == 1 })
    }

    @Test func countsAndReset() throws {
        let ruleset = try run()
        let coverage = try #require(ruleset.coverage)
        let root = try #require(coverage.expressions.first { $0.range.start.line == 5 && $0.range.start.column == 24 })
        // t/x and t/y once, t/z twice (both phases).
        #expect(root.evaluations == 4)
        #expect(root.trueCount == 2)
        #expect(root.errorCount == 2)
        coverage.reset()
        #expect(coverage.expressions.allSatisfy { $0.evaluations == 0 })
    }

    @Test func htmlShowsTheSourceWithCounts() throws {
        let html = try #require(try run().coverage).htmlReport()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("request.resource.data.a == 2 || isX(id)"))
        #expect(html.contains("true 2"))
        #expect(html.contains("class=\"covered\""))
    }

    @Test func distinctValuesAreBounded() throws {
        let ruleset = try Ruleset(
            source: Fixture.rules("    match /t/{id} { allow create: if request.resource.data.n > 0; }"),
            options: .init(recordsCoverage: true))
        for index in 0..<200 {
            _ = ruleset.evaluate(Fixture.request(.create, "t/x", newData: ["n": .integer(Int64(index))]))
        }
        let json = try #require(ruleset.coverage).jsonReport()
        #expect(json.contains("otherValues"))
        #expect(json.utf8.count < 200_000)
    }

    @Test func concurrentEvaluationsAreCounted() async throws {
        let ruleset = try Ruleset(
            source: Fixture.rules("    match /t/{id} { allow create: if request.resource.data.n > 0; }"),
            options: .init(recordsCoverage: true))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<250 { _ = ruleset.evaluate(Fixture.request(.create, "t/x", newData: ["n": 1])) }
                }
            }
        }
        let root = try #require(ruleset.coverage?.expressions.first { $0.range.start.line == 4 })
        #expect(root.evaluations == 2000)
    }

    /// Google's emulator counts condition `j` of `n` considered in a phase `n - j + 1` times,
    /// as if it evaluated the OR of the first 1, 2... conditions in turn.
    @Test func conditionsCountAsTheEmulatorsPrefixes() throws {
        let body = """
                match /t/{id} {
                  allow create: if request.resource.data.b == 1;
                  allow create: if request.resource.data.k == 3;
                  allow create: if request.resource.data.b == 4;
                }
            """
        let ruleset = try Fixture.ruleset(Fixture.rules(body), coverage: true)
        // Denied with an error: both phases run, observed counts 6, 4, 2.
        #expect(!ruleset.evaluate(Fixture.request(.create, "t/z", newData: ["b": 2])).allowed)
        let coverage = try #require(ruleset.coverage)
        func roots() -> [Int] {
            (5...7).map { line in
                coverage.expressions.first { $0.range.start.line == line && $0.range.start.column == 24 }?.evaluations ?? -1
            }
        }
        #expect(roots() == [6, 4, 2])
        coverage.reset()
        // Allowed by the first: counted once.
        #expect(ruleset.evaluate(Fixture.request(.create, "t/z", newData: ["b": 1])).allowed)
        #expect(roots() == [1, 0, 0])
    }

    /// Positions as Google's report has them: closing brackets left out, parentheses included
    /// at the start, errors at the first token or at a binary operator; functions never called
    /// listed without values; nested `let` entries. The numbers are Google's emulator's.
    @Test func positionsFollowTheEmulator() throws {
        let body = """
                function h(a) { let q = a.zz; let r = 1; return q + r; }
                match /t/{id} {
                  allow create: if (h(request.resource.data) == 2) || [request.time][0] == 1 / 0;
                }
                function unused(x) { return x.y; }
            """
        let ruleset = try Fixture.ruleset(Fixture.rules(body), coverage: true)
        _ = ruleset.evaluate(Fixture.request(.create, "t/z", newData: ["b": 2]))
        let text = try #require(ruleset.coverage).jsonReport()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let report = try #require(json["report"] as? [[String: Any]])
        func position(_ node: [String: Any]) -> [Int] {
            let p = node["sourcePosition"] as? [String: Int] ?? [:]
            return [p["line"] ?? 0, p["column"] ?? 0, p["currentOffset"] ?? 0, p["endOffset"] ?? 0]
        }
        func children(_ node: [String: Any]) -> [[String: Any]] { node["children"] as? [[String: Any]] ?? [] }
        #expect(report.count == 3)
        // h: `let q` spans to the end of `q + r`, holding `a.zz` and then `let r`.
        #expect(position(report[0]) == [4, 21, 109, 145])
        #expect(children(report[0]).map(position) == [[4, 29, 117, 120], [4, 35, 123, 145]])
        // The function never called is listed, without values.
        #expect(position(report[1]) == [8, 33, 294, 296])
        #expect(report[1]["values"] == nil)
        let condition = report[2]
        #expect(position(condition) == [6, 24, 193, 253])
        let (left, right) = (children(condition)[0], children(condition)[1])
        // `(h(...) == 2)` starts at its parenthesis and ends before it closes.
        #expect(position(left) == [6, 24, 193, 222])
        // `[request.time][0]` ends at the index, before `]`.
        #expect(children(right).map(position) == [[6, 59, 228, 243], [6, 80, 249, 253]])
        let error = try #require((right["values"] as? [[String: Any]])?.first?["value"] as? [String: Any])
        let undefined = try #require(error["undefined"] as? [String: Any])
        // Reported at the `/` operator.
        #expect(position(undefined) == [6, 82, 251, 251])
        #expect(undefined["causeMessage"] as? String == "Divide by zero error.")
    }

    /// The report's text, byte for byte: values in Google's JSON form (strings escaped by the
    /// one JSON writer, empty repeated fields left out), and a long string cut at the value budget.
    @Test func valuesAreWrittenExactly() throws {
        let ruleset = try Fixture.ruleset(
            Fixture.rules("    match /t/{id} { allow create: if request.resource.data.v != 1 && request.resource.data.s != 1; }"),
            coverage: true)
        let long = String(repeating: "x", count: 5000)
        let data: MapValue = ["v": ["k\"": [1, "a\u{8}\u{1}/"], "e": .map([:]), "l": []], "s": .string(long)]
        #expect(ruleset.evaluate(Fixture.request(.create, "t/x", newData: data)).allowed)
        let text = try #require(ruleset.coverage).jsonReport()
        #expect(
            text.contains(
                #"{"value":{"mapValue":{"fields":{"e":{"mapValue":{}},"k\"":{"listValue":{"values":[{"intValue":"1"},"#
                    + #"{"stringValue":"a\b\u0001/"}]}},"l":{"listValue":{}}}}},"count":1}"#), "\(text)")
        #expect(text.contains(#"{"value":{"stringValue":""# + String(repeating: "x", count: CoverageJSON.valueBudget) + #""},"count":1}"#))
        #expect(text.hasPrefix(#"{"rules":{"files":[{"content":"rules_version = '2';\nservice cloud.firestore {\n"#))
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    /// Repeats are told apart by a fingerprint, not by writing JSON, and counted as the report
    /// shows them: values it shows alike count as one, even when they differ past the value
    /// budget; values it shows apart stay apart (an integer and a float, 0.0 and -0.0, a map
    /// whose key and value split the same characters differently).
    @Test func repeatsAreCountedAsTheReportShowsThem() throws {
        let ruleset = try Fixture.ruleset(
            Fixture.rules("    match /t/{id} { allow create: if request.resource.data.v != null; }"), coverage: true)
        let long = String(repeating: "x", count: 5000)
        let values: [Value] = [
            .integer(1), .integer(1), .double(1), .double(0), .double(-0.0), .string(long + "a"), .string(long + "b"),
            .map(["ab": "c"]), .map(["a": "bc"]),
        ]
        for value in values {
            #expect(ruleset.evaluate(Fixture.request(.create, "t/x", newData: ["v": value])).allowed)
        }
        let text = try #require(ruleset.coverage).jsonReport()
        #expect(text.contains(#"{"value":{"intValue":"1"},"count":2}"#), "\(text)")
        #expect(text.contains(#"{"value":{"floatValue":1.0},"count":1}"#))
        #expect(text.contains(#"{"value":{"floatValue":0.0},"count":1}"#))
        #expect(text.contains(#"{"value":{"floatValue":-0.0},"count":1}"#))
        let cut = #"{"value":{"stringValue":""# + String(repeating: "x", count: CoverageJSON.valueBudget) + #""},"count":"#
        #expect(text.contains(cut + "2}"))
        #expect(!text.contains(cut + "1}"))
        #expect(text.contains(#"{"value":{"mapValue":{"fields":{"ab":{"stringValue":"c"}}}},"count":1}"#))
        #expect(text.contains(#"{"value":{"mapValue":{"fields":{"a":{"stringValue":"bc"}}}},"count":1}"#))
    }
}
