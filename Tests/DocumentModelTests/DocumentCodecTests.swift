import DocumentModel
import Testing

private func decodeDocument(_ bytes: [UInt8], name: DocumentName) throws -> Document {
    try bytes.withUnsafeBytes { try DocumentCodec.decodeDocument($0, name: name) }
}

/// Decodes `bytes` as a value and as a document: each must succeed or throw `.dataLoss`.
/// Returns whether either threw.
@discardableResult
private func expectDecodesOrDataLoss(_ bytes: [UInt8], _ context: @autoclosure () -> String) -> Bool {
    var threw = false
    let name = documentName("c/d")
    let decoders: [() throws -> Void] = [
        { _ = try DocumentCodec.decodeValue(bytes) }, { _ = try decodeDocument(bytes, name: name) },
    ]
    for decode in decoders {
        do {
            try decode()
        } catch let error as FirestoreError {
            threw = true
            #expect(error.code == .dataLoss, "\(context()): \(error)")
        } catch {
            Issue.record("\(context()): unexpected error \(error)")
        }
    }
    return threw
}

@Suite struct DocumentCodecTests {
    @Test(arguments: TestSeeds.property)
    func valuesRoundTrip(seed: UInt64) throws {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<3000 {
            let value = random.value(depth: 4)
            let decoded = try DocumentCodec.decodeValue(DocumentCodec.encode(value))
            #expect(
                decoded.isIdentical(to: value),
                "seed \(seed) iteration \(iteration): \(render(value)) became \(render(decoded))")
        }
    }

    @Test(arguments: TestSeeds.property)
    func documentsRoundTrip(seed: UInt64) throws {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<1000 {
            let document = random.document()
            let decoded = try decodeDocument(DocumentCodec.encode(document), name: document.name)
            let context = "seed \(seed) iteration \(iteration)"
            #expect(decoded.name == document.name, "\(context)")
            #expect(
                decoded.createTime == document.createTime && decoded.updateTime == document.updateTime, "\(context)")
            #expect(
                Value.map(decoded.fields).isIdentical(to: .map(document.fields)),
                "\(context): \(render(.map(document.fields))) became \(render(.map(decoded.fields)))")
        }
    }

    @Test func representationIsPreserved() throws {
        let values: [Value] = [
            .integer(1), .double(1), .double(-0.0), .double(.nan), .double(-.infinity), .integer(Int64.min),
            .integer(Int64.max), .double(.leastNonzeroMagnitude), .string("e\u{301}"), .string("é"),
            .string("a\0b"), .bytes([0, 0xFF]), .timestamp(.min), .timestamp(.max), reference("a/b", project: "é"),
            geoPoint(-0.0, 180), [], [:], ["": [[:], []]], [1, 1.0, "1"],
        ]
        for value in values {
            let decoded = try DocumentCodec.decodeValue(DocumentCodec.encode(value))
            #expect(decoded.isIdentical(to: value), "\(render(value)) became \(render(decoded))")
        }
        let nan = Double(bitPattern: 0x7FF0_0000_0000_0001)
        guard case .double(let decodedNaN) = try DocumentCodec.decodeValue(DocumentCodec.encode(.double(nan))) else {
            Issue.record("NaN did not decode as a double")
            return
        }
        #expect(decodedNaN.bitPattern == nan.bitPattern)
    }

    /// A proper prefix of a valid encoding is never valid: every truncation throws `.dataLoss`.
    @Test(arguments: TestSeeds.property)
    func everyTruncationThrowsDataLoss(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<150 {
            let document = random.document()
            let bytes = DocumentCodec.encode(document)
            for length in 0..<bytes.count {
                let prefix = Array(bytes.prefix(length))
                let context = "seed \(seed) iteration \(iteration) length \(length)/\(bytes.count)"
                expectFirestoreError(.dataLoss, mentioning: "corrupt", context: context) {
                    _ = try decodeDocument(prefix, name: document.name)
                }
            }
            let value = random.value(depth: 4)
            let valueBytes = DocumentCodec.encode(value)
            for length in 0..<valueBytes.count {
                let prefix = Array(valueBytes.prefix(length))
                expectFirestoreError(
                    .dataLoss, context: "seed \(seed) iteration \(iteration): \(render(value)) cut to \(length)"
                ) {
                    _ = try DocumentCodec.decodeValue(prefix)
                }
            }
        }
    }

    @Test(arguments: TestSeeds.property)
    func byteFlipsNeverCrash(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        var detected = 0
        for iteration in 0..<500 {
            var bytes =
                random.chance(50)
                ? DocumentCodec.encode(random.document()) : DocumentCodec.encode(random.value(depth: 4))
            for _ in 0..<(1 + random.below(3)) where !bytes.isEmpty {
                bytes[random.below(bytes.count)] ^= UInt8(1 + random.below(255))
            }
            if expectDecodesOrDataLoss(bytes, "seed \(seed) iteration \(iteration) bytes \(bytes)") { detected += 1 }
        }
        #expect(detected > 0, "byte flips should sometimes be detected")
    }

    @Test(arguments: TestSeeds.property)
    func randomBytesNeverCrash(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<2000 {
            let bytes = (0..<random.below(40)).map { _ in
                random.chance(50) ? UInt8(random.below(12)) : UInt8(truncatingIfNeeded: random.next())
            }
            expectDecodesOrDataLoss(bytes, "seed \(seed) iteration \(iteration) bytes \(bytes)")
        }
    }

    @Test func specificCorruptionsThrowDataLoss() {
        let cases: [(String, [UInt8])] = [
            ("unknown tag", [0xFF]),
            ("trailing bytes", [0, 0]),
            ("overlong varint", [3] + Array(repeating: 0xFF, count: 11) + [0]),
            ("string past end", [6, 5, 0x61]),
            ("huge length", [7, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
            ("array count past end", [10, 3, 0, 0]),
            ("nanoseconds out of range", [5, 0, 0x80, 0x94, 0xEB, 0xDC, 0x03]),
            ("seconds out of range", [5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0]),
            (
                "latitude out of range",
                [9] + withUnsafeBytes(of: (100.0).bitPattern.littleEndian) { Array($0) } + Array(repeating: 0, count: 8)
            ),
            ("invalid reference", [8, 3, 0x61, 0x2F, 0x62]),
            ("nesting too deep", Array([[UInt8]](repeating: [10, 1], count: 200).joined()) + [0]),
        ]
        for (reason, bytes) in cases {
            expectFirestoreError(.dataLoss, mentioning: "corrupt", context: reason) {
                _ = try DocumentCodec.decodeValue(bytes)
            }
        }
        let name = documentName("c/d")
        expectFirestoreError(.dataLoss, mentioning: "format") {
            _ = try decodeDocument([2, 0, 0, 0, 0, 0], name: name)
        }
        expectFirestoreError(.dataLoss, mentioning: "trailing") {
            _ = try decodeDocument([1, 0, 0, 0, 0, 0, 0], name: name)
        }
        #expect((try? decodeDocument([1, 0, 0, 0, 0, 0], name: name))?.fields.isEmpty == true)
    }

    /// Nesting twice as deep as Firestore allows (20 levels) still decodes.
    @Test func deepButValidNestingDecodes() throws {
        var value: Value = "leaf"
        for level in 0..<40 { value = level % 2 == 0 ? [value] : ["k": value] }
        #expect(try DocumentCodec.decodeValue(DocumentCodec.encode(value)).isIdentical(to: value))
    }
}
