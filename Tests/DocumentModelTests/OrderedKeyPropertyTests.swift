import DocumentModel
import Testing

/// Property tests: the order-preserving key encoding orders bytewise exactly as Firestore orders
/// values and paths, and stays so when components are concatenated into tuples.
@Suite struct OrderedKeyPropertyTests {
    static let pairCount = 4000

    @Test(arguments: TestSeeds.property)
    func encodingOrderMatchesValueOrder(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        var (equalPairs, sameTypePairs) = (0, 0)
        defer {
            // The generators must keep producing the near misses this test is about.
            #expect(
                equalPairs > Self.pairCount / 50 && sameTypePairs > Self.pairCount / 3,
                "seed \(seed): \(equalPairs) equal and \(sameTypePairs) same-type pairs")
        }
        for iteration in 0..<Self.pairCount {
            let left = random.value()
            let right = random.chance(50) ? random.mutate(left) : random.value()
            let expected = sign(Value.compare(left, right))
            if expected == 0 { equalPairs += 1 }
            if left.typeOrder == right.typeOrder { sameTypePairs += 1 }
            let actual = compareBytes(OrderedKey.encoding(of: left), OrderedKey.encoding(of: right))
            let context = "seed \(seed) iteration \(iteration): \(render(left)) vs \(render(right))"
            #expect(actual == expected, "\(context)")
            #expect(sign(Value.compare(right, left)) == -expected, "antisymmetry, \(context)")
            if expected == 0 { #expect(left.hashValue == right.hashValue, "hash, \(context)") }
            if actual != expected { return }
        }
    }

    @Test(arguments: TestSeeds.property)
    func sortingByKeySortsByValue(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        let values = (0..<1500).map { _ in random.value() }
        let sorted = values.map { (OrderedKey.encoding(of: $0), $0) }.sorted { compareBytes($0.0, $1.0) < 0 }
        for (left, right) in zip(sorted, sorted.dropFirst()) {
            #expect(Value.compare(left.1, right.1) <= 0, "seed \(seed): \(render(left.1)) before \(render(right.1))")
        }
    }

    @Test(arguments: TestSeeds.property)
    func equalValuesEncodeIdentically(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<Self.pairCount {
            let value = random.value()
            let twin = RandomValueGenerator.equivalent(value)
            let context = "seed \(seed) iteration \(iteration): \(render(value)) vs \(render(twin))"
            #expect(Value.compare(value, twin) == 0, "\(context)")
            #expect(OrderedKey.encoding(of: value) == OrderedKey.encoding(of: twin), "\(context)")
            #expect(value.hashValue == twin.hashValue, "\(context)")
            if OrderedKey.encoding(of: value) != OrderedKey.encoding(of: twin) { return }
        }
    }

    /// Every pair of edge numbers, both types, exhaustively.
    @Test func edgeNumbersEncodeInOrder() {
        var numbers =
            RandomValueGenerator.edgeIntegers.map(Value.integer) + RandomValueGenerator.edgeDoubles.map(Value.double)
        numbers += RandomValueGenerator.edgeIntegers.flatMap { integer -> [Value] in
            let double = Double(integer)
            return [.double(double), .double(double.nextUp), .double(double.nextDown)]
        }
        for left in numbers {
            for right in numbers {
                let expected = sign(Value.compare(left, right))
                let actual = compareBytes(OrderedKey.encoding(of: left), OrderedKey.encoding(of: right))
                #expect(actual == expected, "\(render(left)) vs \(render(right))")
            }
        }
    }

    @Test(arguments: TestSeeds.property)
    func stringThenValueTuplesOrderByComponent(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<Self.pairCount {
            let (leftText, rightText) = (random.string(maxPieces: 2), random.string(maxPieces: 2))
            let leftValue = random.value(depth: 1)
            let rightValue = random.chance(50) ? random.mutate(leftValue) : random.value(depth: 1)
            var leftKey = OrderedKey()
            leftKey.appendString(leftText)
            leftKey.appendValue(leftValue)
            var rightKey = OrderedKey()
            rightKey.appendString(rightText)
            rightKey.appendValue(rightValue)
            let byText = compareUTF8(leftText, rightText)
            let expected = sign(byText != 0 ? byText : Value.compare(leftValue, rightValue))
            let actual = compareBytes(leftKey.bytes, rightKey.bytes)
            let left = "(\(leftText.debugDescription), \(render(leftValue)))"
            let right = "(\(rightText.debugDescription), \(render(rightValue)))"
            #expect(actual == expected, "seed \(seed) iteration \(iteration): \(left) vs \(right)")
            if actual != expected { return }
        }
    }

    @Test(arguments: TestSeeds.property)
    func valueThenValueTuplesOrderByComponent(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<Self.pairCount {
            let left = (random.value(depth: 2), random.value(depth: 1))
            let right =
                random.chance(50) ? (left.0, random.mutate(left.1)) : (random.mutate(left.0), random.value(depth: 1))
            let first = Value.compare(left.0, right.0)
            let expected = sign(first != 0 ? first : Value.compare(left.1, right.1))
            let actual = compareBytes(
                OrderedKey.encoding(of: left.0) + OrderedKey.encoding(of: left.1),
                OrderedKey.encoding(of: right.0) + OrderedKey.encoding(of: right.1))
            let shown = "(\(render(left.0)), \(render(left.1))) vs (\(render(right.0)), \(render(right.1)))"
            #expect(actual == expected, "seed \(seed) iteration \(iteration): \(shown)")
            if actual != expected { return }
        }
    }

    @Test(arguments: TestSeeds.property)
    func pathThenDescendingIntegerTuplesOrderByComponent(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<Self.pairCount {
            let leftPath = random.resourcePath(maxDepth: 3)
            let rightPath = random.chance(40) ? leftPath : random.resourcePath(maxDepth: 3)
            let leftNumber = random.integer()
            let rightNumber = random.chance(30) ? leftNumber : random.integer()
            var leftKey = OrderedKey()
            leftKey.appendPath(leftPath)
            leftKey.appendDescendingInt64(leftNumber)
            var rightKey = OrderedKey()
            rightKey.appendPath(rightPath)
            rightKey.appendDescendingInt64(rightNumber)
            let expected =
                leftPath != rightPath
                ? (leftPath < rightPath ? -1 : 1)
                : (leftNumber == rightNumber ? 0 : (leftNumber > rightNumber ? -1 : 1))
            let actual = compareBytes(leftKey.bytes, rightKey.bytes)
            let shown = "(\(leftPath.segments), \(leftNumber)) vs (\(rightPath.segments), \(rightNumber))"
            #expect(actual == expected, "seed \(seed) iteration \(iteration): \(shown)")
            if actual != expected { return }
        }
    }

    @Test(arguments: TestSeeds.property)
    func ascendingIntegersOrderNumerically(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for _ in 0..<Self.pairCount {
            let (left, right) = (random.integer(), random.integer())
            var leftKey = OrderedKey()
            leftKey.appendInt64(left)
            var rightKey = OrderedKey()
            rightKey.appendInt64(right)
            let expected = left == right ? 0 : (left < right ? -1 : 1)
            #expect(compareBytes(leftKey.bytes, rightKey.bytes) == expected, "seed \(seed): \(left) vs \(right)")
        }
    }
}

/// The path encoding: segment-wise order, parents first, and collection prefixes for scans.
@Suite struct OrderedKeyPathTests {
    private static func pathKey(_ path: ResourcePath) -> [UInt8] {
        var key = OrderedKey()
        key.appendPath(path)
        return key.bytes
    }

    private static func segmentsKey(_ path: ResourcePath) -> [UInt8] {
        var key = OrderedKey()
        key.appendPathSegments(path)
        return key.bytes
    }

    @Test(arguments: TestSeeds.property)
    func pathEncodingOrdersLikePaths(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<OrderedKeyPropertyTests.pairCount {
            let left = random.resourcePath()
            var right = random.resourcePath()
            if random.chance(30), !left.segments.isEmpty {
                right = try! ResourcePath(
                    segments: Array(left.segments.prefix(random.below(left.segments.count))) + right.segments)
            }
            let expected = left == right ? 0 : (left < right ? -1 : 1)
            let actual = compareBytes(Self.pathKey(left), Self.pathKey(right))
            #expect(actual == expected, "seed \(seed) iteration \(iteration): \(left.segments) vs \(right.segments)")
            if actual != expected { return }
        }
    }

    @Test(arguments: TestSeeds.property)
    func parentSortsBeforeEveryDescendant(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<OrderedKeyPropertyTests.pairCount {
            let parent = random.resourcePath(maxDepth: 3)
            let child = try! ResourcePath(
                segments: parent.segments + random.resourcePath(maxDepth: 3).segments + [random.segment()])
            #expect(parent < child && child.hasPrefix(parent))
            #expect(
                compareBytes(Self.pathKey(parent), Self.pathKey(child)) < 0,
                "seed \(seed) iteration \(iteration): \(parent.segments) before \(child.segments)")
        }
    }

    /// `appendPathSegments(c)` is a prefix of `appendPath(d)` exactly when `d` lies at or below `c`.
    @Test(arguments: TestSeeds.property)
    func segmentsArePrefixExactlyOfDescendants(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for iteration in 0..<OrderedKeyPropertyTests.pairCount {
            let collection = random.resourcePath(maxDepth: 3)
            var path = random.resourcePath()
            if random.chance(50) { path = try! ResourcePath(segments: collection.segments + path.segments) }
            let prefix = Self.segmentsKey(collection)
            let isPrefix = Self.pathKey(path).starts(with: prefix)
            #expect(
                isPrefix == path.hasPrefix(collection),
                "seed \(seed) iteration \(iteration): \(collection.segments) and \(path.segments)")
        }
    }

    @Test func collectionPrefixExcludesSiblingsWhoseNamesExtendIt() throws {
        let prefix = Self.segmentsKey(try ResourcePath("users"))
        for inside in ["users/alice", "users/bob/posts/1", "users/\0"] {
            #expect(Self.pathKey(try ResourcePath(inside)).starts(with: prefix), "\(inside)")
        }
        for outside in ["users2/alice", "user/alice", "usersx/a", "users\0/a", "a/users", "user"] {
            #expect(!Self.pathKey(try ResourcePath(outside)).starts(with: prefix), "\(outside)")
        }
    }

    @Test func pathOrderIsSegmentOrderNotStringOrder() throws {
        let paths = try ["a/b", "a/b/c/d", "a/b-c", "a/b0", "a-b/c", "a\0/c", "b"].map { try ResourcePath($0) }
        let expectedOrder = try ["a/b", "a/b/c/d", "a/b-c", "a/b0", "a\0/c", "a-b/c", "b"].map { try ResourcePath($0) }
        #expect(paths.sorted() == expectedOrder)
        #expect(paths.sorted { compareBytes(Self.pathKey($0), Self.pathKey($1)) < 0 } == expectedOrder)
        #expect(compareBytes(Self.pathKey(.root), Self.pathKey(try ResourcePath("a"))) < 0)
    }
}
