import DocumentModel
import Testing

/// `OrderedKeyReader` reads back what `OrderedKey` wrote; the byte layout itself is part of the
/// stored format, so a few exact encodings are pinned here too.
@Suite struct OrderedKeyReaderTests {
    @Test func readsStringsBack() throws {
        let texts = ["", "a", "\0", "a\0b", "\0\0", "\u{FF}", "é", "e\u{301}", "\u{FFFF}", "\u{1F600}", "users/alice"]
        var key = OrderedKey()
        for text in texts { key.appendString(text) }
        var reader = OrderedKeyReader(key.bytes)
        for text in texts {
            let read = try reader.readString()
            #expect(read.utf8.elementsEqual(text.utf8), "\(text.debugDescription)")
        }
        #expect(reader.isAtEnd)
    }

    @Test func readsPathsBack() throws {
        let paths = try ["", "users", "users/alice", "a\0/b/c", "é/e\u{301}/\u{1F600}/x"].map { try ResourcePath($0) }
        var key = OrderedKey()
        for path in paths { key.appendPath(path) }
        var reader = OrderedKeyReader(key.bytes)
        for path in paths { #expect(try reader.readPath() == path) }
        #expect(reader.isAtEnd)
    }

    @Test func readsIntegersBackInBothDirections() throws {
        let numbers: [Int64] = [0, 1, -1, 42, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 1 << 53 + 1]
        var key = OrderedKey()
        for number in numbers {
            key.appendInt64(number)
            key.appendDescendingInt64(number)
        }
        var reader = OrderedKeyReader(key.bytes)
        for number in numbers {
            #expect(try reader.readInt64() == number)
            #expect(try reader.readDescendingInt64() == number)
        }
        #expect(reader.isAtEnd)
    }

    @Test(arguments: TestSeeds.property)
    func readsRandomTuplesBack(seed: UInt64) throws {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<1000 {
            let tag = UInt8(truncatingIfNeeded: random.next())
            let path = random.resourcePath()
            let text = random.string()
            let (ascending, descending) = (random.integer(), random.integer())
            var key = OrderedKey()
            key.appendByte(tag)
            key.appendPath(path)
            key.appendString(text)
            key.appendDescendingInt64(descending)
            key.appendInt64(ascending)
            var reader = OrderedKeyReader(key.bytes)
            let context = "seed \(seed) iteration \(iteration)"
            #expect(try reader.readByte() == tag, "\(context)")
            #expect(try reader.readPath() == path, "\(context): \(path.segments)")
            #expect(try reader.readString().utf8.elementsEqual(text.utf8), "\(context): \(text.debugDescription)")
            #expect(try reader.readDescendingInt64() == descending, "\(context)")
            #expect(try reader.readInt64() == ascending, "\(context)")
            #expect(reader.isAtEnd && reader.offset == key.bytes.count, "\(context)")
        }
    }

    @Test func startsAtAnOffset() throws {
        var key = OrderedKey()
        key.appendByte(7)
        key.appendString("x")
        var reader = OrderedKeyReader(key.bytes, offset: 1)
        #expect(try reader.readString() == "x")
        #expect(reader.isAtEnd)
    }

    @Test func corruptKeysThrowDataLoss() {
        let corrupt: [[UInt8]] = [[], [0x61], [0x61, 0x00], [0x61, 0x00, 0x02], [0x00, 0x7F]]
        for bytes in corrupt {
            var reader = OrderedKeyReader(bytes)
            expectFirestoreError(.dataLoss) { _ = try reader.readString() }
        }
        for bytes: [UInt8] in [[0x61, 0x00, 0x01], [0x61, 0x00, 0x01, 0x00], [0x61]] {
            var reader = OrderedKeyReader(bytes)
            expectFirestoreError(.dataLoss) { _ = try reader.readPath() }
        }
        var short = OrderedKeyReader([1, 2, 3, 4, 5, 6, 7])
        expectFirestoreError(.dataLoss) { _ = try short.readInt64() }
        expectFirestoreError(.dataLoss) { _ = try short.readDescendingInt64() }
        var empty = OrderedKeyReader([])
        expectFirestoreError(.dataLoss) { _ = try empty.readByte() }
    }

    /// Every truncation of a valid key fails cleanly or reads a shorter component, never crashes.
    @Test func truncatedKeysNeverCrash() {
        var key = OrderedKey()
        key.appendPath(try! ResourcePath("users/a\0b/posts/\u{1F600}"))
        key.appendDescendingInt64(12345)
        for length in 0..<key.bytes.count {
            var reader = OrderedKeyReader(Array(key.bytes.prefix(length)))
            do {
                _ = try reader.readPath()
                _ = try reader.readDescendingInt64()
                Issue.record("truncation to \(length) bytes read as complete")
            } catch let error as FirestoreError {
                #expect(error.code == .dataLoss)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func pinnedEncodings() {
        var key = OrderedKey()
        key.appendString("a\0")
        #expect(key.bytes == [0x61, 0x00, 0xFF, 0x00, 0x01])
        var path = OrderedKey()
        path.appendPath(try! ResourcePath("a/b"))
        #expect(path.bytes == [0x61, 0x00, 0x01, 0x62, 0x00, 0x01, 0x00, 0x00])
        var number = OrderedKey()
        number.appendInt64(0)
        number.appendDescendingInt64(0)
        #expect(number.bytes == [0x80, 0, 0, 0, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(OrderedKey.encoding(of: .null) == [0x05])
        #expect(OrderedKey.encoding(of: true) == [0x0A, 0x01])
        #expect(OrderedKey.encoding(of: .double(.nan)) == [0x0F])
        #expect(OrderedKey.encoding(of: 1) == [0x10, 0xBF, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(OrderedKey.encoding(of: .integer(1 << 53 + 1)) == [0x10, 0xC3, 0x40, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(OrderedKey.encoding(of: "") == [0x19, 0x00, 0x01])
        #expect(OrderedKey.encoding(of: []) == [0x2D, 0x00, 0x00])
        #expect(OrderedKey.encoding(of: [:]) == [0x32, 0x00, 0x00])
    }
}
