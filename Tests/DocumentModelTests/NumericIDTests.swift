import DocumentModel
import Testing

/// Numeric document ids (`__id<int64>__`): which ids are numeric, and that they sort before
/// every other id, by value, in paths, names, reference values and their key encodings. The
/// expectations were recorded from Google's emulator (ids written, then read back ordered by
/// `__name__` and by a field holding references to them).
@Suite("Numeric document ids")
struct NumericIDTests {
    /// Ids in the order Google's emulator returns them from a query ordered by `__name__`.
    static let emulatorOrder = [
        "__id-9223372036854775808__", "__id-5__", "__id1__", "__id2__", "__id10__", "__id9223372036854775807__",
        "A", "_", "__idz", "a",
    ]

    @Test("numeric ids are __id, a canonical non-zero 64-bit integer, then __")
    func numericIDs() {
        #expect(ResourcePath.numericID("__id42__") == 42)
        #expect(ResourcePath.numericID("__id-7__") == -7)
        #expect(ResourcePath.numericID("__id9223372036854775807__") == .max)
        #expect(ResourcePath.numericID("__id-9223372036854775808__") == .min)
        for id in [
            "__id0__", "__id01__", "__id-0__", "__id-01__", "__id00__", "__id+1__", "__id__", "__id-__", "__id 1__",
            "__ida__", "__id1_", "_id1__", "__id\u{0663}__", "__id9223372036854775808__", "id1", "a",
        ] {
            #expect(ResourcePath.numericID(id) == nil, "\(id)")
        }
    }

    @Test(
        "rule: like Google's emulator, only canonical numbers are numeric ids; out-of-range numbers are not 64-bit",
        arguments: [
            ("c/__id0__", "reserved"), ("c/__id01__", "reserved"), ("c/__id-0__", "reserved"),
            ("c/__id-01__", "reserved"), ("c/__id00__", "reserved"), ("c/__id+1__", "reserved"),
            ("c/__id09999999999999999999__", "reserved"),
            ("c/__id9223372036854775808__", "not a 64 bit integer"),
            ("c/__id-9223372036854775809__", "not a 64 bit integer"),
            ("__id1__", "reserved"),  // a collection id is never numeric
        ])
    func rejectsNonCanonicalNumbers(text: String, reason: String) {
        expectFirestoreError(.invalidArgument, mentioning: reason, context: text) { _ = try ResourcePath(text) }
    }

    @Test("rule: numeric ids sort first, by value, then other ids by bytes")
    func pathOrder() throws {
        let paths = try Self.emulatorOrder.map { try ResourcePath(segments: ["c", $0]) }
        #expect(paths.reversed().sorted() == paths)
        #expect(paths.shuffled().sorted().map(\.lastSegment) == Self.emulatorOrder)
        #expect(compareIDs("__id2__", "__id10__") < 0 && compareIDs("__id10__", "__id2__") > 0)
        #expect(compareIDs("__id7__", "__id7__") == 0 && compareIDs("__id7__", "0") < 0)
        // Deeper ids follow the same rule below a numeric parent.
        #expect(try ResourcePath("c/__id3__/s/__id2__") < ResourcePath("c/__id3__/s/x"))
        #expect(try ResourcePath("c/__id-5__/s/y") < ResourcePath("c/__id3__/s/__id2__"))
        #expect(try ResourcePath("c/__id3__") < ResourcePath("c/__id3__/s/__id-9__"))
    }

    @Test("rule: reference values order like their names; their encodings order the same way")
    func referenceOrder() throws {
        let database = try DatabaseID(project: "p")
        let references = try Self.emulatorOrder.map { Value.reference(try DocumentName(database, "c/\($0)")) }
        for (left, right) in zip(references, references.dropFirst()) {
            #expect(left < right, "\(left) < \(right)")
            #expect(
                OrderedKey.encoding(of: left).lexicographicallyPrecedes(OrderedKey.encoding(of: right)),
                "\(left) < \(right) encoded")
        }
    }

    @Test("a numeric id is encoded as a number: between a path's end and every string, and read back")
    func encoding() throws {
        let paths = try Self.emulatorOrder.map { try ResourcePath(segments: ["c", $0]) }
        let encoded = paths.map { path -> [UInt8] in
            var key = OrderedKey()
            key.appendPath(path)
            return key.bytes
        }
        for (left, right) in zip(encoded, encoded.dropFirst()) { #expect(left.lexicographicallyPrecedes(right)) }
        var parent = OrderedKey()
        parent.appendPath(try ResourcePath("c"))
        #expect(parent.bytes.lexicographicallyPrecedes(encoded[0]))
        var numeric = OrderedKey()
        numeric.appendPathSegment("__id1__")
        #expect(numeric.bytes == OrderedKey.numericIDMarker + [0x80, 0, 0, 0, 0, 0, 0, 1])
        // The smallest string id, a zero byte, still sorts after the largest number.
        var zeroByte = OrderedKey()
        zeroByte.appendPathSegment("\u{0}")
        var largest = OrderedKey()
        largest.appendPathSegment("__id9223372036854775807__")
        #expect(largest.bytes.lexicographicallyPrecedes(zeroByte.bytes))
        for (path, bytes) in zip(paths, encoded) {
            var reader = OrderedKeyReader(bytes)
            #expect(try reader.readPath() == path)
            #expect(reader.isAtEnd)
        }
    }

    @Test(arguments: TestSeeds.property)
    func randomPathsWithNumericIDsOrderAsEncoded(seed: UInt64) throws {
        var random = RandomValueGenerator(seed: seed)
        let ids = ["__id-1__", "__id1__", "__id2__", "__id10__", "__id-9223372036854775808__", "a", "b", "\u{0}", "_"]
        func path() throws -> ResourcePath {
            let depth = 1 + random.below(4)
            return try ResourcePath(segments: (0..<depth).map { index in
                index % 2 == 0 ? random.pick(["c", "d"]) : random.chance(50) ? random.pick(ids) : random.segment()
            })
        }
        for iteration in 0..<2000 {
            let (left, right) = (try path(), try path())
            var (leftKey, rightKey) = (OrderedKey(), OrderedKey())
            leftKey.appendPath(left)
            rightKey.appendPath(right)
            let expected = left == right ? 0 : (left < right ? -1 : 1)
            let actual = leftKey.bytes == rightKey.bytes ? 0 : (leftKey.bytes.lexicographicallyPrecedes(rightKey.bytes) ? -1 : 1)
            #expect(actual == expected, "seed \(seed) iteration \(iteration): \(left) vs \(right)")
            var reader = OrderedKeyReader(leftKey.bytes)
            #expect(try reader.readPath() == left)
            if actual != expected { return }
        }
    }
}
