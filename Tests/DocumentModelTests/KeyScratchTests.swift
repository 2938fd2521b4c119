import DocumentModel
import Testing

/// `KeyScratch` writes exactly the bytes of the array-backed encoders (`OrderedKey`,
/// `DocumentCodec.encode(_:)`), whatever it held before and however much it grows.
@Suite struct KeyScratchTests {
    @Test(arguments: TestSeeds.property)
    func sameBytesAsTheArrayEncoders(seed: UInt64) throws {
        var random = RandomValueGenerator(seed: seed)
        // A small buffer, so that values of any size make it grow.
        var scratch = KeyScratch(capacity: 16)
        for iteration in 0..<500 {
            let value = random.value()
            // A prefix kept across the truncation, as index keys keep their group and field.
            scratch.truncate(to: 0)
            scratch.appendString("prefix\u{0}with zero")
            let kept = scratch.count
            scratch.appendValue(.string(String(repeating: "x", count: iteration % 40)))
            scratch.truncate(to: kept)
            scratch.appendValue(value)
            var key = OrderedKey()
            key.appendString("prefix\u{0}with zero")
            key.appendValue(value)
            #expect(scratch.bytes == key.bytes, "seed \(seed) iteration \(iteration): \(render(value))")
        }
    }

    @Test("a document encoded into the scratch decodes to itself")
    func documentRoundTrip() throws {
        var random = RandomValueGenerator(seed: 7)
        let scratch = KeyScratch(capacity: 16)
        let name = try DocumentName(try DatabaseID(project: "p"), "c/d")
        for _ in 0..<200 {
            let fields = MapValue(uniqueKeysWithValues: (0..<6).map { ("field \($0)", random.value()) })
            let time = Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000)
            let document = Document(name: name, fields: fields, createTime: time, updateTime: time)
            scratch.truncate(to: 0)
            DocumentCodec.encode(document, into: scratch)
            #expect(scratch.bytes == DocumentCodec.encode(document))
            let decoded = try scratch.withBytes { try DocumentCodec.decodeDocument($0, name: name) }
            #expect(decoded == document)
        }
    }
}
