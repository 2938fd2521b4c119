import DocumentModel
import Testing

@Suite struct MapValueTests {
    @Test func keysAreKeptInUTF8ByteOrder() {
        var map = MapValue()
        for key in ["\u{1F600}", "b", "é", "", "\u{FFFF}", "a", "Z", "a\0", "e\u{301}"] { map[key] = .string(key) }
        #expect(map.keys == ["", "Z", "a", "a\0", "b", "e\u{301}", "é", "\u{FFFF}", "\u{1F600}"])
        #expect(map.count == 9 && !map.isEmpty)
        for entry in map { #expect(entry.value == .string(entry.key)) }
    }

    @Test(arguments: TestSeeds.property)
    func randomInsertionsStaySortedAndUnique(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for _ in 0..<300 {
            var map = MapValue()
            var reference: [[UInt8]: Value] = [:]
            for _ in 0..<random.below(20) {
                let key = random.key()
                if random.chance(20) {
                    map[key] = nil
                    reference[Array(key.utf8)] = nil
                } else {
                    let value = random.value(depth: 1)
                    map[key] = value
                    reference[Array(key.utf8)] = value
                }
            }
            let keys = map.keys.map { Array($0.utf8) }
            #expect(keys == reference.keys.sorted { compareBytes($0, $1) < 0 }, "seed \(seed)")
            for entry in map { #expect(reference[Array(entry.key.utf8)]!.isIdentical(to: entry.value), "seed \(seed)") }
        }
    }

    @Test func canonicallyEquivalentKeysAreDifferentFields() {
        var map: MapValue = ["é": 1]
        map["e\u{301}"] = 2
        #expect(map.count == 2)
        #expect(map["é"] == 1 && map["e\u{301}"] == 2)
        map["é"] = nil
        #expect(map.keys == ["e\u{301}"])
    }

    /// A missing field reads as `nil`, a field holding null as `.null`: `Value` is expressible by
    /// `nil`, which makes the two easy to confuse.
    @Test func missingFieldsAreAbsentNotNull() throws {
        var map: MapValue = ["n": .null]
        #expect(map["missing"] == nil && MapValue()["n"] == nil)
        if case .some(.null) = map["n"] {
        } else {
            Issue.record("a null field reads as \(String(describing: map["n"]))")
        }
        map["n"] = Value?.none
        #expect(map.isEmpty)
        #expect(MapValue().value(at: try FieldPath("a")) == nil)
    }

    @Test func subscriptSetsReplacesAndRemoves() {
        var map: MapValue = ["a": 1, "b": 2]
        map["a"] = "x"
        map["c"] = nil
        map["b"] = nil
        #expect(map.keys == ["a"] && map["a"] == "x" && map["b"] == nil)
        let duplicates = MapValue(uniqueKeysWithValues: [("k", 1), ("k", 2)])
        #expect(duplicates.count == 1 && duplicates["k"]!.isIdentical(to: 2))
    }

    @Test func setValueCreatesNestedMaps() throws {
        var map = MapValue()
        map.setValue("Paris", at: try FieldPath("address.city"))
        map.setValue(75001, at: try FieldPath("address.zip"))
        map.setValue(true, at: try FieldPath("`a.b`.c"))
        #expect(Value.map(map) == ["address": ["city": "Paris", "zip": 75001], "a.b": ["c": true]])
        #expect(map.value(at: try FieldPath("address.city")) == "Paris")
        #expect(map.value(at: try FieldPath("address")) == ["city": "Paris", "zip": 75001])
        #expect(map.value(at: try FieldPath("address.country")) == nil)
        #expect(map.value(at: try FieldPath("a.b")) == nil)
        #expect(map.value(at: try FieldPath("`a.b`.c")) == true)
    }

    @Test func setValueReplacesANonMapOnTheWay() throws {
        var map: MapValue = ["a": 1, "b": ["x", "y"]]
        map.setValue("deep", at: try FieldPath("a.b.c"))
        map.setValue(0, at: try FieldPath("b.`0`"))
        #expect(Value.map(map) == ["a": ["b": ["c": "deep"]], "b": ["0": 0]])
        #expect(map.value(at: try FieldPath("a.b.c.d")) == nil)
    }

    @Test func setValueKeepsSiblings() throws {
        var map: MapValue = ["a": ["keep": 1, "old": 2]]
        map.setValue(3, at: try FieldPath("a.old"))
        map.setValue(4, at: try FieldPath("a.new"))
        #expect(Value.map(map) == ["a": ["keep": 1, "new": 4, "old": 3]])
    }

    @Test func removeValueAtNestedPaths() throws {
        var map: MapValue = ["a": ["b": ["c": 1, "d": 2]], "x": 1]
        map.removeValue(at: try FieldPath("a.b.c"))
        #expect(Value.map(map) == ["a": ["b": ["d": 2]], "x": 1])
        map.removeValue(at: try FieldPath("a.b.d"))
        // Maps on the way are kept, even when empty.
        #expect(Value.map(map) == ["a": ["b": [:]], "x": 1])
        map.removeValue(at: try FieldPath("a.missing.deeper"))
        map.removeValue(at: try FieldPath("x.y"))
        map.removeValue(at: try FieldPath("nothing"))
        #expect(Value.map(map) == ["a": ["b": [:]], "x": 1])
        map.removeValue(at: try FieldPath("a"))
        #expect(map.keys == ["x"])
    }

    @Test func equalityAndHashingIgnoreInsertionOrder() {
        let forward = MapValue(uniqueKeysWithValues: [("a", 1), ("b", 2.0)])
        let backward = MapValue(uniqueKeysWithValues: [("b", 2), ("a", 1.0)])
        #expect(forward == backward && forward.hashValue == backward.hashValue)
        #expect(forward != ["a": 1, "b": 3])
        #expect(MapValue() == [:] && MapValue().isEmpty)
    }
}
