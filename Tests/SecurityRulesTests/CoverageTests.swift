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
}
