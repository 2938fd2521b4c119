import DocumentModel
import Testing

/// `JSONWriter`, Hearth's one writer of JSON text: written piece by piece, it writes what
/// `JSONValue.serialized(pretty:)` writes for the same value.
@Suite struct JSONWriterTests {
    /// `{"a":[1,"x\"",true,null,{}],"b":{"c":[]},"d":<fragment>}`, written piece by piece.
    func written(pretty: Bool) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.number(1)
        writer.string("x\"\u{8}\u{C}\u{1F}")
        writer.bool(true)
        writer.null()
        writer.beginObject()
        writer.endObject()
        writer.endArray()
        writer.key("b")
        writer.beginObject()
        writer.key("c")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        writer.key("d")
        writer.fragment(#"{"e":-1.5}"#)
        writer.endObject()
        return writer.output
    }

    let value = JSONValue.object([
        JSONValue.Member(
            "a", .array([.number("1"), .string("x\"\u{8}\u{C}\u{1F}"), .bool(true), .null, .object([])])),
        JSONValue.Member("b", .object([JSONValue.Member("c", .array([]))])),
        JSONValue.Member("d", .object([JSONValue.Member("e", .number("-1.5"))])),
    ])

    @Test func piecesWriteWhatTheValueSerializesTo() throws {
        #expect(written(pretty: false) == #"{"a":[1,"x\"\b\f\u001f",true,null,{}],"b":{"c":[]},"d":{"e":-1.5}}"#)
        #expect(written(pretty: false) == value.serialized())
        #expect(try JSONValue(parsing: written(pretty: false)) == value)
    }

    @Test func prettyOutputIndentsEachMemberAndElement() throws {
        // A fragment is written as given (compact), on the line of its key.
        #expect(
            written(pretty: true) == #"""
                {
                  "a": [
                    1,
                    "x\"\b\f\u001f",
                    true,
                    null,
                    {}
                  ],
                  "b": {
                    "c": []
                  },
                  "d": {"e":-1.5}
                }
                """#)
        #expect(try JSONValue(parsing: written(pretty: true)) == value)
    }
}
