import Testing

@testable import SecurityRules

/// Diagnostics on very long lines: each carries a bounded excerpt of its line, around its
/// position, so checking a hostile file stays linear; the positions stay exact.
@Suite struct LongLineDiagnosticsTests {
    /// The longest excerpt: the window and an ellipsis at each end.
    static let longestExcerpt = LineExcerpt.width + 2

    /// A 75,000-character line 4 of a rules file: a list literal of `fillerBefore` `1`s,
    /// `names` (undefined, so one warning each) and `fillerAfter` `1`s, with the column of each
    /// name. Spaces before the list make up the length.
    static func longLine(_ names: [String], fillerBefore: Int, fillerAfter: Int) -> (source: String, columns: [Int]) {
        let start = "    match /a/{b} { allow read: if "
        var list = "["
        var offsets: [Int] = []
        for _ in 0..<fillerBefore { list += "1, " }
        for name in names {
            offsets.append(list.unicodeScalars.count)
            list += name + ", "
        }
        for _ in 0..<fillerAfter { list += "1, " }
        list += "1] == null; }"
        let padding = 75_000 - start.unicodeScalars.count - list.unicodeScalars.count
        precondition(padding >= 0, "the line is too long")
        let listColumn = start.unicodeScalars.count + padding + 1
        return (Fixture.rules(start + String(repeating: " ", count: padding) + list), offsets.map { listColumn + $0 })
    }

    @Test func theExcerptOfALongLineIsCappedAndShowsTheToken() throws {
        let (source, columns) = LongLineDiagnosticsTests.longLine(["zzUndefined"], fillerBefore: 12_000, fillerAfter: 12_000)
        let diagnostics = Ruleset.check(source: source)
        try #require(diagnostics.count == 1)
        let diagnostic = diagnostics[0]
        #expect(diagnostic.message == "Invalid variable name: zzUndefined.")
        #expect(diagnostic.location?.line == 4)
        #expect(diagnostic.location?.column == columns[0])
        let excerpt = Array(diagnostic.sourceLine.unicodeScalars)
        #expect(excerpt.count <= LongLineDiagnosticsTests.longestExcerpt)
        #expect(diagnostic.sourceLine.hasPrefix("…") && diagnostic.sourceLine.hasSuffix("…"))
        #expect(diagnostic.sourceLine.contains("zzUndefined"))
        // The excerpt's column is the token's, and the caret marks it.
        let token = String(String.UnicodeScalarView(excerpt[(diagnostic.sourceLineColumn - 1)...].prefix(11)))
        #expect(token == "zzUndefined")
        let rendered = diagnostic.rendered.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rendered.count == 3)
        #expect(rendered.first == "firestore.rules:4:\(columns[0]): warning: Invalid variable name: zzUndefined.")
        let tildes = try #require(diagnostic.range).end.column - columns[0] - 1
        #expect(rendered.last == Substring(String(repeating: " ", count: diagnostic.sourceLineColumn - 1) + "^" + String(repeating: "~", count: tildes)))
    }

    @Test func aLongLineIsCutOnlyWhereItGoesOn() throws {
        let atStart = Ruleset.check(source: LongLineDiagnosticsTests.longLine(["zzFirst"], fillerBefore: 0, fillerAfter: 24_981).source)
        let first = try #require(atStart.first)
        #expect(!first.sourceLine.hasPrefix("…") && first.sourceLine.hasSuffix("…"))
        #expect(first.sourceLine.hasPrefix("    match /a/{b} { allow read: if [zzFirst, "))
        #expect(first.sourceLineColumn == first.location?.column)

        let atEnd = Ruleset.check(source: LongLineDiagnosticsTests.longLine(["zzLast"], fillerBefore: 24_981, fillerAfter: 0).source)
        let last = try #require(atEnd.first)
        #expect(last.sourceLine.hasPrefix("…") && !last.sourceLine.hasSuffix("…"))
        #expect(last.sourceLine.unicodeScalars.count == LineExcerpt.width + 1)
        #expect(last.sourceLine.contains("zzLast, 1] == null; }"))
    }

    /// 9,000 diagnostics on one line: each excerpt is bounded (copying the line into each
    /// made 675 million characters) and holds its own token at its column.
    @Test func manyDiagnosticsOnALongLineDoNotEachCopyIt() throws {
        let names = (0..<9_000).map { "z\($0)" }
        let (source, columns) = LongLineDiagnosticsTests.longLine(names, fillerBefore: 0, fillerAfter: 0)
        for diagnostics in [Ruleset.check(source: source), RulesLinter().check(source: source)] {
            try #require(diagnostics.count == names.count)
            let total = diagnostics.reduce(0) { $0 + $1.sourceLine.unicodeScalars.count }
            #expect(total <= names.count * LongLineDiagnosticsTests.longestExcerpt)
            for (index, diagnostic) in diagnostics.enumerated() {
                let excerpt = diagnostic.sourceLine.unicodeScalars
                let name = names[index]
                let at = excerpt.index(excerpt.startIndex, offsetBy: diagnostic.sourceLineColumn - 1)
                guard diagnostic.location?.column == columns[index], excerpt[at...].starts(with: name.unicodeScalars + ["," as Unicode.Scalar])
                else {
                    Issue.record("diagnostic \(index) does not point at \(name): \(diagnostic.rendered)")
                    break
                }
            }
        }
    }
}
