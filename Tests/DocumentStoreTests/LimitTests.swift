import DocumentModel
import DocumentStore
import Testing

@Suite("Limits and bad input")
struct LimitTests {
    /// Commits `write` expecting a refusal with `code` whose message contains `fragment`, and
    /// checks that nothing was written.
    private func expectRefused(
        _ fixture: StoreFixture, _ write: Write, _ code: FirestoreError.Code, naming fragment: String,
        alsoWriting other: Write? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let witness = try fixture.name("witness/w")
        let error = #expect(throws: FirestoreError.self, sourceLocation: sourceLocation) {
            try fixture.store.commit([.set(witness, fields: ["x": 1])] + (other.map { [$0] } ?? []) + [write])
        }
        #expect(error?.code == code, sourceLocation: sourceLocation)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(try fixture.store.document(witness) == nil, "nothing may be written", sourceLocation: sourceLocation)
    }

    /// A document whose storage size is exactly `size` bytes: two string fields `s` and `t`,
    /// each under the per-value limit.
    private func document(ofSize size: Int, at name: DocumentName) -> MapValue {
        let overhead = StorageSize.documentName(name.path) + 32 + 2 * (StorageSize.string("s") + 1)
        let total = size - overhead
        return [
            "s": .string(String(repeating: "a", count: total / 2)),
            "t": .string(String(repeating: "b", count: total - total / 2)),
        ]
    }

    @Test("a document of exactly 1 MiB is stored; one byte more is refused")
    func documentSize() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("big/doc")
        let atLimit = document(ofSize: StorageSize.maxDocumentBytes, at: name)
        #expect(StorageSize.document(path: name.path, fields: atLimit) == 1_048_576)
        let overLimit = document(ofSize: StorageSize.maxDocumentBytes + 1, at: name)
        try expectRefused(fixture, .set(name, fields: overLimit), .invalidArgument, naming: "maximum entity size")
        try fixture.store.commit([.set(name, fields: atLimit)])
        #expect(try fixture.store.document(name)?.storageSize == 1_048_576)
        let split: MapValue = [
            "a": .string(String(repeating: "a", count: 600_000)), "b": .string(String(repeating: "b", count: 600_000)),
        ]
        try expectRefused(fixture, .set(name, fields: split), .invalidArgument, naming: "big/doc")
    }

    @Test("a field value over 1,048,487 bytes is refused, naming the field")
    func fieldValueSize() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("big/field")
        let value = Value.bytes(Array(repeating: 1, count: StorageSize.maxFieldValueBytes + 1))
        try expectRefused(fixture, .set(name, fields: ["blob": value]), .invalidArgument, naming: "blob")
    }

    @Test("a transform that grows a document past 1 MiB is refused")
    func transformGrowsDocument() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("big/grow")
        let nearly = document(ofSize: StorageSize.maxDocumentBytes - 4, at: name)
        try fixture.store.commit([.set(name, fields: nearly)])
        try expectRefused(
            fixture,
            Write(name: name, operation: .transform, transforms: [FieldTransform(try .path("z"), .serverTimestamp)]),
            .invalidArgument, naming: "big/grow")
    }

    @Test("nesting of maps and arrays deeper than 20 is refused")
    func depth() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("deep/doc")
        func nested(_ levels: Int) -> Value {
            var value: Value = 1
            for level in 0..<levels { value = level % 2 == 0 ? ["m": value] : [value] }
            return value
        }
        try fixture.store.commit([.set(name, fields: ["f": nested(20)])])
        try expectRefused(fixture, .set(name, fields: ["f": nested(21)]), .invalidArgument, naming: "Property f")
    }

    @Test("reserved field names are refused, at the top level and nested")
    func reservedFieldNames() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("fields/doc")
        try expectRefused(fixture, .set(name, fields: ["__secret__": 1]), .invalidArgument, naming: "__secret__")
        try expectRefused(fixture, .set(name, fields: ["a": ["__x__": 1]]), .invalidArgument, naming: "__x__")
        try expectRefused(
            fixture, .setMerge(name, fields: [:], mask: [try .path("a.__x__")]), .invalidArgument, naming: "__x__")
    }

    @Test("more than 500 transforms on one document are refused")
    func transformCount() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("many/doc")
        let transforms = try (0...500).map { FieldTransform(try .path("f\($0)"), .increment(1)) }
        try fixture.store.commit([.set(name, fields: [:], transforms: Array(transforms.prefix(500)))])
        try expectRefused(fixture, .set(name, fields: [:], transforms: transforms), .invalidArgument, naming: "500")
    }

    @Test("an array directly inside an array is refused, as Firestore does")
    func arrayInArray() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("arrays/doc")
        try expectRefused(fixture, .set(name, fields: ["a": [[1]]]), .invalidArgument, naming: "array value in an array")
        try fixture.store.commit([.set(name, fields: ["a": [["m": [1]]]])])
    }

    @Test("empty and over-long field names are refused with the emulator's messages")
    func fieldNames() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("fields/names")
        try expectRefused(fixture, .set(name, fields: ["": 1]), .invalidArgument, naming: "empty string")
        try expectRefused(fixture, .set(name, fields: ["m": ["": 1]]), .invalidArgument, naming: "Property m")
        let long = String(repeating: "n", count: 1501)
        try expectRefused(fixture, .set(name, fields: [.init(long): 1]), .invalidArgument, naming: "longer than 1500")
        try fixture.store.commit([.set(name, fields: [.init(String(long.dropFirst())): 1, "____": 2, "__x": 3])])
    }

    @Test("mask and transform paths: at most 20 names, no nested transform conflicts")
    func paths() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("paths/doc")
        let deep = try FieldPath(segments: (0..<21).map { "p\($0)" })
        try expectRefused(fixture, .setMerge(name, fields: [:], mask: [deep]), .invalidArgument, naming: "20 elements")
        try expectRefused(
            fixture,
            .set(name, fields: [:], transforms: [
                FieldTransform(try .path("m"), .increment(1)), FieldTransform(try .path("m.x"), .increment(1)),
            ]),
            .invalidArgument, naming: "Cannot transform property m")
    }

    @Test("two creates of one document in one commit are refused")
    func doubleInsert() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("ins/doc")
        try expectRefused(
            fixture, .create(name, fields: [:]), .invalidArgument, naming: "insert then insert",
            alsoWriting: .create(name, fields: ["a": 1]))
        try fixture.store.commit([.delete(name), .create(name, fields: ["a": 1])])
    }

    @Test("stored timestamps are cut to microseconds, as Firestore stores them")
    func timestampPrecision() throws {
        let fixture = try StoreFixture()
        let name = try fixture.name("ts/doc")
        let precise = try Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789)
        try fixture.store.commit([.set(name, fields: ["t": .timestamp(precise), "list": [.timestamp(precise)]])])
        let cut = try Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_000)
        #expect(try fixture.store.document(name)?.fields == ["t": .timestamp(cut), "list": [.timestamp(cut)]])
        let error = #expect(throws: FirestoreError.self) {
            try fixture.store.document(name, readTime: precise)
        }
        #expect(error?.message.contains("microseconds precision") == true)
    }

    @Test("invalid document ids and paths are refused before anything is written")
    func invalidNames() throws {
        let database = try DatabaseID(project: "demo")
        for bad in ["users/", "users//x", "users/.", "users/..", "users/__id__", "users/a/b", "__c__/x",
                    "users/__id99999999999999999999__", "users/" + String(repeating: "x", count: 1501)] {
            #expect(throws: FirestoreError.self, "\(bad.prefix(40))") { try DocumentName(database, bad) }
        }
        for good in ["users/__", "users/____", "users/__id42__", "users/__id-7__", "users/...", "users/a b"] {
            #expect(throws: Never.self, "\(good)") { try DocumentName(database, good) }
        }
        let tooDeep = Array(repeating: "c/d", count: 101).joined(separator: "/")
        #expect(throws: FirestoreError.self) { try DocumentName(database, tooDeep) }
        #expect(throws: FirestoreError.self) { try DatabaseID(project: "a/b") }
    }
}
