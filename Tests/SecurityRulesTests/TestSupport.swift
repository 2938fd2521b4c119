import DocumentModel
import Testing

@testable import SecurityRules

/// Fixtures shared by the tests: a database, a time, documents, and rules wrapped in the usual
/// `service cloud.firestore { match /databases/{database}/documents { ... } }`.
enum Fixture {
    static let database = try! DatabaseID(project: "demo-rules")
    static let time = try! Timestamp(seconds: 1_700_000_000, nanoseconds: 123_000_000)

    static func name(_ path: String) -> DocumentName { try! DocumentName(database, path) }

    static func document(_ path: String, _ fields: MapValue) -> Document {
        Document(name: name(path), fields: fields, createTime: time, updateTime: time)
    }

    /// Rules with `body` inside the documents match; line 4 is the first line of `body`.
    static func rules(_ body: String, version: String? = "2") -> String {
        let header = version.map { "rules_version = '\($0)';\n" } ?? "\n"
        return header + "service cloud.firestore {\n  match /databases/{database}/documents {\n" + body + "\n  }\n}\n"
    }

    static func ruleset(_ source: String, coverage: Bool = false) throws -> Ruleset {
        do {
            return try Ruleset(source: source, options: .init(recordsCoverage: coverage))
        } catch {
            Issue.record("rules did not compile:\n\(error.rendered)")
            throw error
        }
    }

    static func request(
        _ method: RulesMethod, _ path: String, uid: String? = "alice", claims: MapValue = [:],
        resource: MapValue? = nil, newData: MapValue? = nil, query: RulesQuery? = nil
    ) -> RulesRequest {
        let resourcePath = try! ResourcePath(path)
        var token = claims
        if let uid {
            token["sub"] = .string(uid)
            token["user_id"] = .string(uid)
        }
        return RulesRequest(
            database: database, path: resourcePath, method: method,
            auth: uid.map { RulesAuth(uid: $0, token: token) }, time: time,
            resource: resource.map { document(path, $0) }, newResource: newData.map { document(path, $0) },
            query: query, accessScope: method == .list ? .multipleDocuments : .singleDocument)
    }

    static let sampleData: MapValue = [
        "a": 1, "s": "hello", "l": [1, 2, 3], "m": ["k": 1, "j": "x"], "n": nil, "f": 1.5,
    ]

    /// Evaluates `expression` as the condition of a create of `t/x` (data `sampleData`) and
    /// returns the value's description, as the evaluator sees it (errors included).
    static func evaluate(_ expression: String, data: MapValue = sampleData, uid: String? = "alice") -> String {
        let source = rules("    match /t/{id} { allow create: if \(expression); }")
        let ruleset: Ruleset
        do {
            ruleset = try Ruleset(source: source)
        } catch {
            return "load error: " + error.errors.map(\.message).joined(separator: " | ")
        }
        let request = Fixture.request(.create, "t/x", uid: uid, newData: data)
        let matcher = PathMatcher(request: request, version: 2)
        guard let (match, values) = matcher.matches(in: ruleset.compiled.matches).last,
            let condition = match.allows.first?.condition
        else { return "no condition" }
        return PreparedRequest.with(request) { prepared in
            let context = EvalContext(
                request: prepared, documents: nil,
                documentSource: EvalContext.DocumentSource(lookup: NoDocuments(), tracker: nil), timeLimit: .seconds(5),
                coverage: nil)
            context.pathValues = values
            return context.eval(condition).description
        }
    }

    /// The decision for a request under rules.
    static func decide(_ source: String, _ request: RulesRequest, documents: [Document] = []) throws -> RulesDecision {
        try ruleset(source).evaluate(request, lookup: InMemoryDocuments(before: documents))
    }
}

/// A rules source with `/*N*/` markers taken out, and where each marker was.
struct MarkedSource {
    let text: String
    /// Marker number to (line, column), 1-based.
    let markers: [Int: (line: Int, column: Int)]

    init(_ marked: String) {
        var text = ""
        var markers: [Int: (line: Int, column: Int)] = [:]
        var line = 1
        var column = 1
        let scalars = Array(marked.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                var end = index + 2
                var digits = ""
                while end < scalars.count, ("0"..."9").contains(scalars[end]) {
                    digits.unicodeScalars.append(scalars[end])
                    end += 1
                }
                if !digits.isEmpty, end + 1 < scalars.count, scalars[end] == "*", scalars[end + 1] == "/" {
                    markers[Int(digits)!] = (line, column)
                    index = end + 2
                    continue
                }
            }
            let scalar = scalars[index]
            text.unicodeScalars.append(scalar)
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        self.text = text
        self.markers = markers
    }
}

/// Checks that the diagnostics of `marked` are exactly one per marker, at the marker, with
/// the given severity and message, and that each renders as `file:line:col: severity: message`,
/// the source line and a caret under the marker. `check` gives the diagnostics: Google's
/// messages by default, ``RulesLinter``'s when given.
func expectDiagnostics(
    _ marked: String, _ expected: [Int: String],
    check: (String) -> [Diagnostic] = { Ruleset.check(source: $0) },
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let source = MarkedSource(marked)
    let diagnostics = check(source.text).filter { $0.range != nil }
    #expect(diagnostics.count == expected.count, "\(diagnostics.map(\.rendered))", sourceLocation: sourceLocation)
    for (number, text) in expected.sorted(by: { $0.key < $1.key }) {
        guard let marker = source.markers[number] else {
            Issue.record("no marker /*\(number)*/", sourceLocation: sourceLocation)
            continue
        }
        let found = diagnostics.first { $0.range?.start.line == marker.line && $0.range?.start.column == marker.column }
        guard let found else {
            Issue.record(
                "no diagnostic at marker \(number) (\(marker.line):\(marker.column)); got \(diagnostics.map(\.rendered))",
                sourceLocation: sourceLocation)
            continue
        }
        let lineText = source.text.split(separator: "\n", omittingEmptySubsequences: false)[marker.line - 1]
        let (shown, column) = expectedExcerpt(of: lineText, at: marker.column)
        let caretPrefix = String(shown.prefix(column - 1).map { $0 == "\t" ? "\t" : " " })
        let header = "firestore.rules:\(marker.line):\(marker.column): \(text)"
        #expect(found.rendered.hasPrefix(header + "\n" + shown + "\n" + caretPrefix + "^"), "\(found.rendered)",
            sourceLocation: sourceLocation)
    }
}

/// What a diagnostic at `column` of `line` shows of it, and the column of the diagnostic there:
/// the whole line up to `LineExcerpt.width` characters (of these tests' ASCII sources), otherwise
/// that many from half of them before the column (the last that many at the end of the line),
/// with `…` where the line is cut.
func expectedExcerpt(of line: Substring, at column: Int) -> (text: String, column: Int) {
    let width = LineExcerpt.width
    guard line.count > width else { return (String(line), column) }
    let start = min(max(0, column - 1 - width / 2), line.count - width)
    let window = line.dropFirst(start).prefix(width)
    let before = start > 0 ? "…" : ""
    let after = start + width < line.count ? "…" : ""
    return (before + window + after, column - start + before.count)
}
