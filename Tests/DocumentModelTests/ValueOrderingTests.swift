import DocumentModel
import Testing

/// Expects `values` to be strictly increasing in Firestore's order, checking every pair both ways.
private func expectStrictlyIncreasing(_ values: [Value], sourceLocation: SourceLocation = #_sourceLocation) {
    for (i, left) in values.enumerated() {
        for right in values[(i + 1)...] {
            #expect(
                Value.compare(left, right) < 0, "\(render(left)) < \(render(right))", sourceLocation: sourceLocation)
            #expect(
                Value.compare(right, left) > 0, "\(render(right)) > \(render(left))", sourceLocation: sourceLocation)
            #expect(left < right && left != right, sourceLocation: sourceLocation)
        }
    }
}

private func expectEqual(_ left: Value, _ right: Value, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(Value.compare(left, right) == 0, "\(render(left)) == \(render(right))", sourceLocation: sourceLocation)
    #expect(left == right, sourceLocation: sourceLocation)
    #expect(
        left.hashValue == right.hashValue, "hash of \(render(left)) and \(render(right))",
        sourceLocation: sourceLocation)
}

@Suite struct TypeOrderTests {
    @Test func typesOrderAsFirestoreDefines() {
        // Each value is the "largest" of its type that is easy to write, the next the smallest of
        // the next type: the type decides before the contents.
        expectStrictlyIncreasing([
            .null, .boolean(false), .boolean(true), .double(.nan), .integer(Int64.min), .double(.infinity),
            .timestamp(.min), .timestamp(.max), .string(""), .string("\u{10FFFF}\u{10FFFF}"), .bytes([]),
            .bytes([0xFF, 0xFF]), reference("a/a"), reference("\u{1F600}/\u{1F600}"), geoPoint(-90, -180),
            geoPoint(90, 180), .array([]), .array([.map(["z": "z"])]), .vector([-.infinity]), .vector([1, 2, 3]),
            .map([:]), .map(["": .null]),
        ])
    }

    @Test func typeOrderAndNames() {
        let values: [Value] = [
            nil, true, 1, 1.5, .timestamp(.min), "s", .bytes([1]), reference("a/b"), geoPoint(0, 0), [1],
            .vector([1]), ["a": 1],
        ]
        #expect(values.map(\.typeOrder) == [0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(
            values.map(\.typeName) == [
                "nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue", "stringValue",
                "bytesValue", "referenceValue", "geoPointValue", "arrayValue", "mapValue", "mapValue",
            ])
        #expect(values.filter(\.isNumber).count == 2)
    }

    @Test func sortingMixedValues() {
        let shuffled: [Value] = [
            ["a": 1], [1], geoPoint(1, 1), .vector([0]), reference("a/b"), .bytes([0]), "a", .timestamp(.min), 1, false,
            nil,
        ]
        #expect(shuffled.sorted().map(\.typeOrder) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    }
}

@Suite struct NumberOrderTests {
    @Test func integersAndDoublesCompareExactly() {
        expectStrictlyIncreasing([.double(0x1p53), .integer(1 << 53 + 1), .double(0x1p53 + 2)])
        expectStrictlyIncreasing([.integer(-(1 << 53) - 1), .double(-0x1p53), .integer(-(1 << 53) + 1)])
        expectStrictlyIncreasing([.integer(Int64.max - 1), .integer(Int64.max), .double(0x1p63)])
        expectStrictlyIncreasing([.double(0x1p63.nextDown), .integer(Int64.max - 1022), .integer(Int64.max)])
        expectStrictlyIncreasing([.double((-0x1p63).nextDown), .integer(Int64.min), .integer(Int64.min + 1)])
        expectStrictlyIncreasing([.integer(0), .double(0.5), .integer(1), .double(1.5), .integer(2)])
        expectStrictlyIncreasing([.integer(-2), .double(-1.5), .integer(-1), .double(-0.5), .integer(0)])
        expectStrictlyIncreasing([
            .integer(-1), .double(-.leastNonzeroMagnitude), .double(0), .double(.leastNonzeroMagnitude), .integer(1),
        ])
    }

    @Test func equalNumbersOfEitherType() {
        expectEqual(.integer(1), .double(1.0))
        expectEqual(.double(-0.0), .double(0.0))
        expectEqual(.double(-0.0), .integer(0))
        expectEqual(.integer(1 << 53), .double(0x1p53))
        expectEqual(.integer(Int64.min), .double(-0x1p63))
        expectEqual(.integer(Int64.max - 1023), .double(0x1p63.nextDown))
        #expect(Value.integer(1 << 53 + 1) != .double(0x1p53))
        #expect(Value.integer(Int64.max) != .double(0x1p63))
    }

    @Test func nanEqualsItselfAndSortsFirst() {
        expectEqual(.double(.nan), .double(.nan))
        expectEqual(.double(.nan), .double(-.nan))
        expectEqual(.double(.nan), .double(Double(bitPattern: 0x7FF0_0000_0000_0001)))
        expectStrictlyIncreasing([.double(.nan), .double(-.infinity), .integer(Int64.min)])
        expectStrictlyIncreasing([.double(.nan), .double(-.greatestFiniteMagnitude)])
        expectStrictlyIncreasing([.integer(Int64.max), .double(.greatestFiniteMagnitude), .double(.infinity)])
        #expect(Value.boolean(true) < .double(.nan))
        #expect(Value.double(.nan).isNaN && !Value.integer(0).isNaN)
    }
}

@Suite struct ScalarOrderTests {
    @Test func booleans() {
        expectStrictlyIncreasing([false, true])
        expectEqual(true, true)
    }

    @Test func stringsCompareByUTF8Bytes() {
        // U+FFFF is EF BF BF and U+1F600 is F0 9F 98 80; UTF-16 would put U+1F600 (a surrogate
        // pair starting D83D) first.
        expectStrictlyIncreasing(["\u{FFFF}", "\u{1F600}"])
        expectStrictlyIncreasing(["", "\0", "A", "Z", "a", "a\0", "aa", "z", "\u{7F}", "\u{80}", "é", "\u{FFFD}"])
        #expect(Value.string("é") != .string("e\u{301}"))
        expectStrictlyIncreasing(["e\u{301}", "é"])
        #expect(compareUTF8("\u{FFFF}", "\u{1F600}") < 0)
    }

    @Test func bytesCompareUnsigned() {
        expectStrictlyIncreasing([
            .bytes([]), .bytes([0]), .bytes([0, 0]), .bytes([0, 0xFF]), .bytes([1]),
            .bytes([0x7F]), .bytes([0x80]), .bytes([0xFF]),
        ])
        expectEqual(.bytes([1, 2]), .bytes([1, 2]))
    }

    @Test func timestampsBySecondsThenNanoseconds() {
        expectStrictlyIncreasing([
            .timestamp(.min), .timestamp(timestamp(-1, 0)), .timestamp(timestamp(-1, 999_999_999)),
            .timestamp(timestamp(0)), .timestamp(timestamp(0, 1)), .timestamp(timestamp(1)), .timestamp(.max),
        ])
    }

    @Test func geoPointsByLatitudeThenLongitude() {
        expectStrictlyIncreasing([
            geoPoint(-90, 180), geoPoint(-0.0, 0), geoPoint(0, -180), geoPoint(0, -0.0), geoPoint(0, 0),
            geoPoint(0, 1), geoPoint(1, -180),
        ])
    }

    @Test func geoPointRangeIsValidated() {
        for (latitude, longitude) in [
            (90.5, 0.0), (-91, 0), (0, 180.5), (0, -181), (.nan, 0), (0, .nan), (.infinity, 0),
        ] {
            expectFirestoreError(.invalidArgument) { _ = try GeoPoint(latitude: latitude, longitude: longitude) }
        }
    }

    @Test func referencesCompareSegmentBySegment() {
        // As raw strings "a-b/c" < "a/b" ('-' is 0x2D, '/' is 0x2F); by segments "a" < "a-b".
        expectStrictlyIncreasing([reference("a/b"), reference("a-b/c")])
        expectStrictlyIncreasing([reference("a/b"), reference("a/b/c/d"), reference("a/b-c"), reference("a/b0")])
        expectStrictlyIncreasing([reference("a/b", project: "a"), reference("a/a", project: "b")])
        expectStrictlyIncreasing([
            .reference(documentName("z/z", database: "(default)")), .reference(documentName("a/a", database: "db")),
        ])
        expectEqual(reference("users/alice"), reference("users/alice"))
        #expect(reference("a/e\u{301}") != reference("a/é"))
        #expect(reference("a/b", project: "e\u{301}") != reference("a/b", project: "é"))
    }
}

@Suite struct CompositeOrderTests {
    @Test func arraysElementWisePrefixFirst() {
        expectStrictlyIncreasing([
            [], [nil], [nil, nil], [false], [1], [1, nil], [1, 0], [1, "a"], [2], ["a"], [[]], [[1]],
        ])
        expectStrictlyIncreasing([[2], [10]])
        expectEqual([1, 2.0], [1.0, 2])
        expectEqual([.double(.nan)], [.double(.nan)])
    }

    @Test func mapsBySortedKeysKeyThenValue() {
        expectStrictlyIncreasing([
            [:], ["": nil], ["": 1], ["a": nil], ["a": 1], ["a": 1, "b": 0], ["a": 1, "c": 0], ["a": 2], ["b": 0],
        ])
        // The first differing key decides, whatever the values.
        expectStrictlyIncreasing([["a": 100, "c": 0], ["b": 0]])
        // Keys in the same order whatever the insertion order; maps compare by bytes of keys.
        expectEqual(["b": 2, "a": 1], ["a": 1.0, "b": 2])
        expectStrictlyIncreasing([["Z": 0], ["a": 0], ["\u{FFFF}": 0], ["\u{1F600}": 0]])
        #expect(Value.map(["é": 1]) != .map(["e\u{301}": 1]))
        // A map sorts after every array, however large.
        expectStrictlyIncreasing([.array([.map(["z": "z"])]), .map([:])])
    }
}

@Suite struct ValueEqualityTests {
    @Test func equalValuesHashAlike() {
        let pairs: [(Value, Value)] = [
            (1, 1.0), (0, -0.0), (.double(.nan), .double(-.nan)), (.integer(1 << 53), .double(0x1p53)),
            (.integer(Int64.min), .double(-0x1p63)), ([1, ["a": 2]], [1.0, ["a": 2.0]]),
            (["k": [0]], ["k": [-0.0]]), ("é", "é"),
        ]
        for (left, right) in pairs { expectEqual(left, right) }
        #expect(Set<Value>([1, 1.0, 2, 2.0, .double(.nan), .double(-.nan)]).count == 3)
    }

    @Test func identicalRequiresSameRepresentation() {
        #expect(!Value.integer(1).isIdentical(to: .double(1)))
        #expect(!Value.double(0).isIdentical(to: .double(-0.0)))
        #expect(Value.double(.nan).isIdentical(to: .double(-.nan)))
        #expect(!Value.array([1]).isIdentical(to: [1.0]))
        #expect(!Value.map(["a": [1]]).isIdentical(to: ["a": [1.0]]))
        #expect(Value.map(["a": [1, "x"]]).isIdentical(to: ["a": [1, "x"]]))
        #expect(!Value.string("é").isIdentical(to: "e\u{301}"))
    }

    @Test func literalsBuildTheExpectedCases() {
        let value: Value = ["n": nil, "b": true, "i": 3, "d": 2.5, "s": "x", "a": [1]]
        guard case .map(let map) = value else {
            Issue.record("not a map")
            return
        }
        #expect(map.keys == ["a", "b", "d", "i", "n", "s"])
        #expect(map["i"]!.isIdentical(to: .integer(3)) && map["d"]!.isIdentical(to: .double(2.5)))
        #expect(value.mapValue?["a"]?.arrayValue?.count == 1)
        #expect(Value.string("x").mapValue == nil && Value.null.arrayValue == nil)
    }
}
