import DocumentModel
import Testing

@Suite struct FieldPathParsingTests {
    @Test(arguments: [
        ("a", ["a"]),
        ("a.b", ["a", "b"]),
        ("a.b.c_1", ["a", "b", "c_1"]),
        ("_x.A9", ["_x", "A9"]),
        ("`a.b`.c", ["a.b", "c"]),
        ("c.`a.b`", ["c", "a.b"]),
        ("`a\\`b`", ["a`b"]),
        ("`a\\\\b`", ["a\\b"]),
        ("`\\\\`.`\\``", ["\\", "`"]),
        ("`a-b`", ["a-b"]),
        ("`1`", ["1"]),
        ("`display name`.`é`", ["display name", "é"]),
        ("`\u{1F600}`", ["\u{1F600}"]),
        ("`__name__`", ["__name__"]),
        ("__name__", ["__name__"]),
    ])
    func parses(text: String, segments: [String]) throws {
        #expect(try FieldPath(text).segments == segments)
    }

    @Test(arguments: [
        ("", "must not be empty"),
        ("a..b", "must not be empty"),
        ("a.", "must not be empty"),
        (".a", "must not be empty"),
        ("``", "must not be empty"),
        ("`a", "unterminated"),
        ("a.`b", "unterminated"),
        ("`a\\`", "unterminated"),
        ("`a\\b`", "escape"),
        ("`a\\", "escape"),
        ("a-b", "quoted"),
        ("1a", "quoted"),
        ("a b", "quoted"),
        ("é", "quoted"),
        ("`a`b", "back-quote"),
        ("a`b`", "back-quote"),
        ("`a``b`", "back-quote"),
    ])
    func rejects(text: String, reason: String) {
        let error = expectFirestoreError(.invalidArgument, mentioning: reason, context: text) {
            _ = try FieldPath(text)
        }
        if !text.isEmpty, let error { #expect(error.message.contains(text), "\(error) names the text") }
    }

    /// A backslash escapes only a back-quote or a backslash, judged by Unicode scalars: a combining
    /// mark after it (one `Character` with it in Swift) is still a bad escape.
    @Test func escapesAreJudgedByScalarsNotCharacters() {
        expectFirestoreError(.invalidArgument, mentioning: "escape") { _ = try FieldPath("`a\\\u{301}`") }
        #expect((try? FieldPath("`a`.`\u{301}`"))?.segments == ["a", "\u{301}"])
        #expect((try? FieldPath("`\\`\u{301}`"))?.segments == ["`\u{301}"])
    }

    @Test func segmentsInitializerValidates() throws {
        #expect(try FieldPath(segments: ["a.b", "c"]).segments == ["a.b", "c"])
        expectFirestoreError(.invalidArgument) { _ = try FieldPath(segments: []) }
        expectFirestoreError(.invalidArgument, mentioning: "empty") { _ = try FieldPath(segments: ["a", ""]) }
    }
}

@Suite struct FieldPathFormattingTests {
    @Test(arguments: [
        (["a", "b"], "a.b"),
        (["a.b", "c"], "`a.b`.c"),
        (["a`b"], "`a\\`b`"),
        (["a\\b"], "`a\\\\b`"),
        (["1"], "`1`"),
        (["a-b", "_ok9"], "`a-b`._ok9"),
        (["é"], "`é`"),
        (["a b"], "`a b`"),
    ])
    func description(segments: [String], text: String) throws {
        let path = try FieldPath(segments: segments)
        #expect(path.description == text)
        #expect(try FieldPath(text) == path)
    }

    @Test func simpleNames() {
        for name in ["a", "Z", "_", "_9", "abc_DEF_123", "__name__"] {
            #expect(FieldPath.isSimpleName(name), "\(name)")
        }
        for name in ["", "9", "9a", "a-b", "a.b", "a b", "é", "a`", "\u{1F600}"] {
            #expect(!FieldPath.isSimpleName(name), "\(name)")
        }
        #expect(FieldPath.quotedIfNeeded("ok") == "ok")
        #expect(FieldPath.quotedIfNeeded("a`\\") == "`a\\`\\\\`")
    }

    /// description and parsing are inverses for any names, including back-quotes, backslashes,
    /// dots and combining marks that merge with them into one `Character`.
    @Test(arguments: TestSeeds.property)
    func descriptionRoundTrips(seed: UInt64) throws {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<3000 {
            let segments = (0...random.below(3)).map { _ -> String in
                var name = ""
                while name.isEmpty {
                    name = random.chance(30) ? random.pick(["a", "_b1", "`", "\\", "."]) : random.string()
                }
                return name
            }
            let path = try FieldPath(segments: segments)
            let parsed = try? FieldPath(path.description)
            #expect(
                parsed == path,
                "seed \(seed) iteration \(iteration): scalars \(segments.map { $0.unicodeScalars.map(\.value) })")
            if parsed != path { return }
        }
    }
}

@Suite struct FieldPathOperationsTests {
    @Test func prefixesParentsAndAppending() throws {
        let path = try FieldPath("a.b.c")
        let (a, ab, abcd, abc) = (
            try FieldPath("a"), try FieldPath("a.b"), try FieldPath("a.b.c.d"), try FieldPath("a.bc")
        )
        #expect(path.hasPrefix(a) && path.hasPrefix(ab) && path.hasPrefix(path))
        #expect(!path.hasPrefix(abcd) && !path.hasPrefix(abc))
        #expect(!(try FieldPath("ab")).hasPrefix(try FieldPath("a")))
        #expect(path.parent == (try FieldPath("a.b")))
        #expect((try FieldPath("a")).parent == nil)
        #expect((try FieldPath("a")).appending("b.c").segments == ["a", "b.c"])
    }

    @Test func orderIsSegmentWiseByBytes() throws {
        let sorted = try ["a", "a.b", "a.b.c", "`a-b`", "`a.b`", "b", "`é`"].map { try FieldPath($0) }
        #expect(sorted.shuffled().sorted() == sorted)
        #expect(try FieldPath("`e\u{301}`") != FieldPath("`é`"))
    }

    @Test func documentNamePath() throws {
        #expect(FieldPath.documentName.isDocumentName)
        #expect(try FieldPath("__name__").isDocumentName)
        #expect(!(try FieldPath("a.__name__")).isDocumentName)
        #expect(FieldPath(uncheckedSegment: "a.b").segments == ["a.b"])
        #expect(FieldPath(uncheckedSegments: ["", "x"]).segments == ["", "x"])
    }
}
