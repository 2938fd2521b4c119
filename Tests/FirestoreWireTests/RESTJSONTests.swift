import DocumentModel
import FirestoreWire
import Testing

@Suite struct RESTJSONTests {
    /// Encodes `value` compactly.
    private func text(_ value: Value) -> String {
        RESTJSON.encode(value).serialized()
    }

    /// Decodes one value object from JSON text.
    private func decode(_ json: String) throws -> Value {
        try RESTJSON.decodeValue(JSONValue(parsing: json))
    }

    /// Encodes, prints, parses and decodes `value`, expecting the identical value back.
    private func expectRoundTrip(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for pretty in [false, true] {
            let printed = RESTJSON.encode(value).serialized(pretty: pretty)
            let decoded = try RESTJSON.decodeValue(JSONValue(parsing: printed))
            #expect(decoded.isIdentical(to: value), "\(printed) decoded as \(decoded)", sourceLocation: sourceLocation)
        }
    }

    @Test func encodesEveryTypeInFirestoresForm() throws {
        #expect(text(.null) == #"{"nullValue":null}"#)
        #expect(text(true) == #"{"booleanValue":true}"#)
        #expect(text(.integer(-42)) == #"{"integerValue":"-42"}"#)
        #expect(text(1.5) == #"{"doubleValue":1.5}"#)
        #expect(text(.double(.nan)) == #"{"doubleValue":"NaN"}"#)
        #expect(text(.double(.infinity)) == #"{"doubleValue":"Infinity"}"#)
        #expect(text(.double(-.infinity)) == #"{"doubleValue":"-Infinity"}"#)
        #expect(
            text(.timestamp(timestamp(1_704_067_200, 123_456_000)))
                == #"{"timestampValue":"2024-01-01T00:00:00.123456Z"}"#)
        #expect(text("x\"\n") == #"{"stringValue":"x\"\n"}"#)
        #expect(text(.bytes([0, 1, 2, 255])) == #"{"bytesValue":"AAEC/w=="}"#)
        #expect(
            text(.reference(documentName("a/b")))
                == #"{"referenceValue":"projects/p/databases/(default)/documents/a/b"}"#)
        #expect(text(geoPoint(1, -2.5)) == #"{"geoPointValue":{"latitude":1.0,"longitude":-2.5}}"#)
        #expect(text([1, "a"]) == #"{"arrayValue":{"values":[{"integerValue":"1"},{"stringValue":"a"}]}}"#)
        #expect(
            text(["b": 1, "a": nil]) == #"{"mapValue":{"fields":{"a":{"nullValue":null},"b":{"integerValue":"1"}}}}"#)
        #expect(text([]) == #"{"arrayValue":{}}"#)
        #expect(text(.map(MapValue())) == #"{"mapValue":{}}"#)
    }

    @Test func everyTypeRoundTrips() throws {
        let values: [Value] = [
            .null, true, false, .integer(0), .integer(.max), .integer(.min), 0.1, -0.0, 1e300, .double(.nan),
            .double(.infinity), .double(-.infinity), .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude),
            .double(0x1p53.nextUp), .timestamp(.min), .timestamp(.max), .timestamp(timestamp(0, 1)), "", "é\u{0}😀",
            .bytes([]), .bytes(Array(0...255)), .reference(documentName("users/alice")), geoPoint(-90, 180), geoPoint(0.1, -0.0),
            [], [1, [:], ["a": []]], ["": 1, "a.b": ["`x`": "y"]],
        ]
        for value in values { try expectRoundTrip(value) }
    }

    @Test func integersAreExactAsStringsAndNumbers() throws {
        #expect(text(.integer(.max)) == #"{"integerValue":"9223372036854775807"}"#)
        #expect(text(.integer(.min)) == #"{"integerValue":"-9223372036854775808"}"#)
        #expect(try decode(#"{"integerValue": "9223372036854775807"}"#).isIdentical(to: .integer(.max)))
        #expect(try decode(#"{"integerValue": 9223372036854775807}"#).isIdentical(to: .integer(.max)))
        #expect(try decode(#"{"integerValue": -9223372036854775808}"#).isIdentical(to: .integer(.min)))
        #expect(try decode(#"{"integerValue": 9007199254740993}"#).isIdentical(to: .integer(9_007_199_254_740_993)))
        // Proto3 JSON also reads an integral number in any notation.
        #expect(try decode(#"{"integerValue": 1.0}"#).isIdentical(to: .integer(1)))
        #expect(try decode(#"{"integerValue": 1e3}"#).isIdentical(to: .integer(1000)))
        for bad in [
            #""9223372036854775808""#, "9223372036854775808", #""1.5""#, #""+1""#, #"" 1""#,
            #""""#, "true", "null",
        ] {
            #expect(throws: FirestoreError.self, "\(bad)") { try decode(#"{"integerValue": \#(bad)}"#) }
        }
    }

    @Test func doublesAcceptNumbersAndTheSpecialStrings() throws {
        #expect(try decode(#"{"doubleValue": 1}"#).isIdentical(to: 1.0))
        #expect(try decode(#"{"doubleValue": -0}"#).isIdentical(to: -0.0))
        #expect(try decode(#"{"doubleValue": 2.5e-3}"#).isIdentical(to: 0.0025))
        #expect(try decode(#"{"doubleValue": "NaN"}"#).isNaN)
        #expect(try decode(#"{"doubleValue": "1.5"}"#).isIdentical(to: 1.5))
        #expect(try decode(#"{"doubleValue": "-Infinity"}"#).isIdentical(to: .double(-.infinity)))
        for bad in ["1e400", #""nan""#, #""inf""#, "null", "[]"] {
            #expect(throws: FirestoreError.self, "\(bad)") { try decode(#"{"doubleValue": \#(bad)}"#) }
        }
    }

    @Test func acceptsProtoJSONVariants() throws {
        #expect(try decode(#"{"nullValue": "NULL_VALUE"}"#).isIdentical(to: .null))
        #expect(try decode(#"{"bytesValue": "AAEC_w"}"#).isIdentical(to: .bytes([0, 1, 2, 255])))
        #expect(try decode(#"{"bytesValue": "AAEC-w=="}"#).isIdentical(to: .bytes([0, 1, 2, 251])))
        #expect(
            try decode(#"{"timestampValue": "2024-01-01T02:00:00.5+02:00"}"#)
                .isIdentical(to: .timestamp(timestamp(1_704_067_200, 500_000_000))))
        #expect(try decode(#"{"arrayValue": {}}"#).isIdentical(to: []))
        #expect(try decode(#"{"mapValue": {}}"#).isIdentical(to: .map(MapValue())))
        #expect(try decode(#"{"geoPointValue": {}}"#).isIdentical(to: geoPoint(0, 0)))
    }

    @Test func invalidShapesNameTheTopLevelField() throws {
        let cases: [(json: String, mentioning: String)] = [
            (#"{"a": {"intValue": "1"}}"#, "field 'a': unknown key 'intValue'"),
            (#"{"a": {}}"#, "field 'a': Cannot convert firestore.v1.Value with type unset."),
            (#"{"a": {"stringValue": "x", "booleanValue": true}}"#, "field 'a': a value object must have exactly one"),
            (#"{"a": "x"}"#, "field 'a': "),
            (#"{"a b": {"stringValue": 1}}"#, "field '`a b`': "),
            (
                #"{"a": {"mapValue": {"fields": {"b": {"arrayValue": {"values": "#
                    + #"[{"nullValue": null}, {"booleanValue": 1}]}}}}}}"#,
                "field 'a': "
            ),
            (#"{"a": {"mapValue": {"fields": []}}}"#, "field 'a': "),
            (#"{"a": {"mapValue": {"field": {}}}}"#, "field 'a': unknown key 'field'"),
            (#"{"a": {"arrayValue": {"values": {}}}}"#, "field 'a': "),
            (#"{"a": {"geoPointValue": {"latitude": 91}}}"#, "field 'a': Latitude must be in [-90, 90]"),
            (#"{"a": {"geoPointValue": {"lat": 1}}}"#, "field 'a': unknown key 'lat'"),
            (#"{"a": {"timestampValue": "2024-13-01T00:00:00Z"}}"#, "field 'a': a timestamp is not RFC 3339"),
            (#"{"a": {"referenceValue": "users/alice"}}"#, "field 'a': Invalid document name 'users/alice'"),
            (#"{"a": {"bytesValue": "a"}}"#, "field 'a': "),
            (#"{"a": {"integerValue": "9223372036854775808"}}"#, "field 'a': a number is out of range"),
        ]
        for (json, mentioning) in cases {
            expectFirestoreError(.invalidArgument, mentioning: "Invalid value for " + mentioning) {
                _ = try RESTJSON.decodeFields(JSONValue(parsing: json))
            }
        }
        expectFirestoreError(.invalidArgument, mentioning: "Invalid fields: expected an object of field names") {
            _ = try RESTJSON.decodeDocumentFields(.array([]))
        }
        expectFirestoreError(.invalidArgument, mentioning: "Invalid value: ") {
            _ = try RESTJSON.decodeValue(.string("x"))
        }
    }

    @Test func encodesDocumentsSortedAndPretty() throws {
        let document = Document(
            name: documentName("users/alice"), fields: ["name": "Alice", "age": 30],
            createTime: timestamp(1_704_067_200), updateTime: timestamp(1_704_067_200, 1000))
        #expect(
            RESTJSON.encode(document).serialized(pretty: true) == """
                {
                  "createTime": "2024-01-01T00:00:00Z",
                  "fields": {
                    "age": {
                      "integerValue": "30"
                    },
                    "name": {
                      "stringValue": "Alice"
                    }
                  },
                  "name": "projects/p/databases/(default)/documents/users/alice",
                  "updateTime": "2024-01-01T00:00:00.000001Z"
                }
                """)
        var empty = document
        empty.fields = MapValue()
        #expect(
            RESTJSON.encode(empty).serialized()
                == #"{"createTime":"2024-01-01T00:00:00Z","#
                + #""name":"projects/p/databases/(default)/documents/users/alice","#
                + #""updateTime":"2024-01-01T00:00:00.000001Z"}"#)
        let printed = RESTJSON.encode(document).serialized(pretty: true)
        #expect(try RESTJSON.decodeDocumentFields(JSONValue(parsing: printed)) == document.fields)
    }

    @Test func readsDocumentObjectsAndBareFields() throws {
        func fields(_ json: String) throws -> MapValue {
            try RESTJSON.decodeDocumentFields(JSONValue(parsing: json))
        }
        let alice: MapValue = ["name": "Alice"]
        #expect(try fields(#"{"name": {"stringValue": "Alice"}}"#) == alice)
        #expect(try fields(#"{"fields": {"name": {"stringValue": "Alice"}}}"#) == alice)
        #expect(
            try fields(
                #"{"name": "projects/p/databases/(default)/documents/u/a", "createTime": "x", "#
                    + #""fields": {"name": {"stringValue": "Alice"}}}"#) == alice)
        #expect(try fields(#"{"name": "projects/p/databases/(default)/documents/u/a"}"#) == MapValue())
        #expect(try fields("{}") == MapValue())
        // A `fields` member holding a value object is a field named `fields`.
        #expect(try fields(#"{"fields": {"stringValue": "x"}}"#) == ["fields": "x"])
        #expect(
            try fields(#"{"fields": {"mapValue": {}}, "name": {"nullValue": null}}"#)
                == ["fields": .map(MapValue()), "name": nil])
    }

    @Test func fieldNamesAreKeptByteForByte() throws {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        let json = #"{"\#(composed)": {"integerValue": "1"}, "\#(decomposed)": {"integerValue": "2"}}"#
        let fields = try RESTJSON.decodeFields(JSONValue(parsing: json))
        #expect(fields.count == 2)
        #expect(fields[composed] == 1)
        #expect(fields[decomposed] == 2)
    }
}
