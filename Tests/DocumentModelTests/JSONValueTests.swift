import DocumentModel
import Testing

@Suite struct JSONValueTests {
    @Test func parsesEveryKindAndKeepsNumberText() throws {
        let json = try JSONValue(parsing: #" {"a": [null, true, false, -0, 12.50e+3, "s"], "b": {}} "#)
        #expect(
            json
                == .object([
                    JSONValue.Member(
                        "a",
                        .array([.null, .bool(true), .bool(false), .number("-0"), .number("12.50e+3"), .string("s")])),
                    JSONValue.Member("b", .object([])),
                ]))
        #expect(json["b"] == .object([]))
        #expect(json["c"] == nil)
        #expect(try JSONValue(parsing: "18446744073709551616") == .number("18446744073709551616"))
    }

    @Test func decodesStringEscapes() throws {
        let json = try JSONValue(parsing: #""\"\\\/\b\f\n\r\t\u00e9\u0000\uD83D\uDE00""#)
        #expect(json == .string("\"\\/\u{8}\u{C}\n\r\té\u{0}😀"))
    }

    @Test func reportsSyntaxErrorsWithPosition() {
        let cases: [(text: String, message: String)] = [
            ("", "line 1, column 1: unexpected end of input"),
            ("{\n  \"a\": tru\n}", "line 2, column 8: unexpected text"),
            ("[1,]", "line 1, column 4: unexpected character ']'"),
            ("[1 2]", "line 1, column 4: expected ',' or ']'"),
            (#"{"a" 1}"#, "expected ':' after the key \"a\""),
            ("{1: 2}", "expected a string key"),
            ("01", "leading zero"),
            ("1.", "expected a digit"),
            ("-", "expected a digit"),
            ("1e", "expected a digit"),
            ("NaN", "unexpected character 'N'"),
            ("[] []", "line 1, column 4: unexpected text after the JSON value"),
            ("\"abc", "line 1, column 1: unterminated string"),
            ("\"a\tb\"", "control character 0x9 in a string must be escaped"),
            (#""\x""#, "invalid escape character 'x' after a backslash"),
            (#""\u12""#, "expected four hexadecimal digits"),
            (#""\uD83D""#, "must be followed by a low surrogate"),
            (#""\uDE00""#, "unpaired low surrogate"),
            (#"{"a": 1, "\u0061": 2}"#, "line 1, column 10: duplicate key \"a\""),
            (String(repeating: "[", count: 513), "nesting is deeper than 512 levels"),
        ]
        for (text, message) in cases {
            expectFirestoreError(.invalidArgument, mentioning: message) { _ = try JSONValue(parsing: text) }
        }
        expectFirestoreError(.invalidArgument, mentioning: "not valid UTF-8") {
            _ = try JSONValue(parsing: [0x22, 0xFF, 0x22])
        }
    }

    @Test func acceptsDeepNestingUpToTheLimit() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONValue(parsing: text)
    }

    @Test func keysAreDistinctByBytes() throws {
        let json = try JSONValue(parsing: "{\"\u{E9}\": 1, \"e\u{301}\": 2}")
        #expect(json["\u{E9}"] == .number("1"))
        #expect(json["e\u{301}"] == .number("2"))
        #expect(JSONValue.object([JSONValue.Member("\u{E9}", .null)]) != .object([JSONValue.Member("e\u{301}", .null)]))
    }

    @Test func serializesCompactAndPretty() throws {
        let json = JSONValue.object([
            JSONValue.Member("b", .array([JSONValue(Int64.min), JSONValue(0.1), .array([]), .object([])])),
            JSONValue.Member("a", .string("q\"\\\u{1}\n/é")),
        ])
        #expect(json.serialized() == #"{"b":[-9223372036854775808,0.1,[],{}],"a":"q\"\\\u0001\n/é"}"#)
        #expect(
            json.serialized(pretty: true) == #"""
                {
                  "b": [
                    -9223372036854775808,
                    0.1,
                    [],
                    {}
                  ],
                  "a": "q\"\\\u0001\n/é"
                }
                """#)
        #expect(try JSONValue(parsing: json.serialized()) == json)
        #expect(try JSONValue(parsing: json.serialized(pretty: true)) == json)
    }

    @Test func doublesPrintWithTheFewestDigitsThatRoundTrip() throws {
        for double in [0.1, -0.0, 1e300, .leastNonzeroMagnitude, 0x1p53.nextUp, .greatestFiniteMagnitude, 123.0] {
            guard case .number(let text) = JSONValue(double) else {
                Issue.record("not a number")
                continue
            }
            #expect(Double(text)?.bitPattern == double.bitPattern, "\(text)")
            #expect(try JSONValue(parsing: text) == .number(text))
        }
    }
}
