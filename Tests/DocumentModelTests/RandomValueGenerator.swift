import DocumentModel
import Foundation

/// SplitMix64: a tiny, fast PRNG whose output depends only on the seed (not on the standard
/// library's algorithms), so a failing seed reproduces on every toolchain.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seeds property tests run with. Set `HEARTH_TEST_SEED` to add one (for example the seed a
/// failure message printed, or a fresh one to explore).
enum TestSeeds {
    static let property: [UInt64] = {
        var seeds: [UInt64] = [0x5EED_0001, 0xC0FF_EE12_3456_789A, 20_250_611]
        if let text = ProcessInfo.processInfo.environment["HEARTH_TEST_SEED"], let seed = UInt64(text) {
            seeds.append(seed)
        }
        return seeds
    }()
}

/// Random Firestore values, paths and documents, biased towards the cases that break encodings:
/// numbers at the edges of exact double precision and of `Int64`, NaN, infinities and `-0.0`;
/// empty strings, embedded NULs and multi-byte characters; empty and nested arrays and maps.
/// Values are drawn from small pools, so random pairs are often equal or nearly equal.
struct RandomValueGenerator {
    let seed: UInt64
    private var random: SplitMix64

    init(seed: UInt64) {
        self.seed = seed
        random = SplitMix64(seed: seed)
    }

    // MARK: Primitives

    mutating func next() -> UInt64 { random.next() }

    /// A number in `0 ..< count`.
    mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    // MARK: Numbers

    static let edgeIntegers: [Int64] = [
        0, 1, -1, 2, -2, 1 << 53 - 1, 1 << 53, 1 << 53 + 1, 1 << 53 + 2, -(1 << 53) - 1, -(1 << 53),
        -(1 << 53) + 1, 1 << 62 - 1, 1 << 62, 1 << 62 + 1, -(1 << 62) - 1, Int64.max, Int64.max - 1,
        Int64.max - 1023, Int64.max - 1024, Int64.max - 1025, Int64.max - 2048, Int64.min, Int64.min + 1,
        Int64.min + 1023, Int64.min + 1024, Int64.min + 1025,
    ]

    static let edgeDoubles: [Double] = [
        0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0x1p53, 0x1p53.nextUp, 0x1p53.nextDown, -0x1p53, 0x1p62, 0x1p63,
        0x1p63.nextDown, 0x1p63.nextUp, -0x1p63, (-0x1p63).nextDown, (-0x1p63).nextUp, 0x1p64,
        .infinity, -.infinity, .nan, -.nan, .signalingNaN, Double(bitPattern: 0x7FF0_0000_0000_0001),
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, 0.1, 1e300, -1e-300,
    ]

    mutating func integer() -> Int64 {
        switch below(5) {
        case 0, 1: return pick(Self.edgeIntegers)
        case 2: return pick(Self.edgeIntegers) &+ Int64(below(4097)) &- 2048
        case 3: return Int64(below(21)) - 10
        default: return Int64(bitPattern: next())
        }
    }

    mutating func double() -> Double {
        switch below(6) {
        case 0, 1: return pick(Self.edgeDoubles)
        case 2:
            let near = Double(pick(Self.edgeIntegers))
            return pick([near, near.nextUp, near.nextDown])
        case 3: return Double(below(21) - 10) / pick([1, 2, 4])
        case 4: return Double(integer())
        default: return Double(bitPattern: next())
        }
    }

    mutating func number() -> Value { chance(50) ? .integer(integer()) : .double(double()) }

    // MARK: Strings and bytes

    /// Pieces whose UTF-8 bytes probe escaping and byte order: NUL, one- to four-byte
    /// characters, U+FFFF (above U+1F600 in UTF-16, below it in UTF-8), combining marks.
    static let stringPieces = [
        "", "\0", "\u{01}", "a", "b", "Z", "z", "é", "e\u{301}", "\u{301}", "\u{7F}", "\u{80}", "\u{7FF}",
        "\u{800}", "\u{FFFD}", "\u{FFFF}", "\u{10000}", "\u{1F600}", "\u{10FFFF}", "/", ".", "`", "\\", " ",
    ]

    mutating func string(maxPieces: Int = 4) -> String {
        var text = ""
        for _ in 0..<below(maxPieces + 1) { text += pick(Self.stringPieces) }
        return text
    }

    static let bytePieces: [UInt8] = [0x00, 0x01, 0x02, 0x7F, 0x80, 0xFE, 0xFF]

    mutating func bytes() -> [UInt8] {
        (0..<below(5)).map { _ in chance(80) ? pick(Self.bytePieces) : UInt8(truncatingIfNeeded: next()) }
    }

    // MARK: Timestamps and geo points

    mutating func timestamp() -> Timestamp {
        let seconds: Int64
        switch below(3) {
        case 0: seconds = pick([Timestamp.minSeconds, Timestamp.maxSeconds, 0, -1, 1, 1_700_000_000])
        case 1: seconds = Int64(below(5)) - 2
        default:
            let span = UInt64(Timestamp.maxSeconds - Timestamp.minSeconds + 1)
            seconds = Timestamp.minSeconds + Int64(next() % span)
        }
        let nanoseconds: Int32 =
            chance(50)
            ? pick([0, 1, 999, 1000, 500_000_000, 999_999_999]) : Int32(below(1_000_000_000))
        return try! Timestamp(seconds: seconds, nanoseconds: nanoseconds)
    }

    mutating func coordinate(limit: Double) -> Double {
        chance(50)
            ? pick([-limit, -45.5, -0.0, 0.0, 1e-300, 45.5, limit])
            : Double(next() >> 11) / 0x1p53 * 2 * limit - limit
    }

    mutating func geoPoint() -> GeoPoint {
        try! GeoPoint(latitude: coordinate(limit: 90), longitude: coordinate(limit: 180))
    }

    // MARK: Paths

    static let segmentPool = [
        "a", "b", "a-b", "ab", "a\0", "users", "users2", "user", "é", "e\u{301}", "\u{1F600}", "\u{FFFF}",
        "_", "__", "___", "x.y", "...", "(default)", " ", "\0",
    ]

    /// A valid collection or document id (valid in either position).
    mutating func segment() -> String {
        if chance(70) { return pick(Self.segmentPool) }
        while true {
            let id = string()
            if (try? ResourcePath.validate(id: id, in: [id])) != nil { return id }
        }
    }

    mutating func resourcePath(maxDepth: Int = 5) -> ResourcePath {
        try! ResourcePath(segments: (0..<below(maxDepth + 1)).map { _ in segment() })
    }

    mutating func documentPath() -> ResourcePath {
        try! ResourcePath(segments: (0..<(2 * (1 + below(3)))).map { _ in segment() })
    }

    mutating func databaseID() -> DatabaseID {
        try! DatabaseID(
            project: pick(["p", "p2", "a", "a-b", "é", "e\u{301}"]), database: pick(["(default)", "db", "d"]))
    }

    mutating func documentName() -> DocumentName { try! DocumentName(databaseID(), documentPath()) }

    // MARK: Values

    static let keyPool = ["", "a", "b", "ab", "a\0", "é", "e\u{301}", "\u{1F600}", "\u{FFFF}", "Z", "__name__", "."]

    mutating func key() -> String { chance(70) ? pick(Self.keyPool) : string() }

    mutating func value(depth: Int = 3) -> Value {
        switch below(depth > 0 ? 12 : 10) {
        case 0: return .null
        case 1: return .boolean(chance(50))
        case 2, 3: return number()
        case 4: return .timestamp(timestamp())
        case 5: return .string(string())
        case 6: return .bytes(bytes())
        case 7: return .reference(documentName())
        case 8: return .geoPoint(geoPoint())
        case 9: return chance(50) ? number() : .string(string())
        case 10: return .array((0..<below(4)).map { _ in value(depth: depth - 1) })
        default: return chance(25) ? vector() : .map(map(depth: depth - 1))
        }
    }

    /// A vector of one to four doubles (NaN and both zeros included).
    mutating func vector() -> Value { .vector((0...below(4)).map { _ in double() }) }

    mutating func map(depth: Int) -> MapValue {
        MapValue(uniqueKeysWithValues: (0..<below(4)).map { _ in (key(), value(depth: depth)) })
    }

    mutating func document() -> Document {
        let created = timestamp()
        return Document(name: documentName(), fields: map(depth: 3), createTime: created, updateTime: timestamp())
    }

    /// A value near `value`: one small change somewhere inside it, or sometimes a fresh value.
    mutating func mutate(_ value: Value) -> Value {
        if chance(10) { return self.value() }
        switch value {
        case .integer(let integer):
            return pick([.integer(integer &+ 1), .integer(integer &- 1), Self.equivalent(value), number()])
        case .double(let double):
            return pick([.double(double.nextUp), .double(double.nextDown), Self.equivalent(value), number()])
        case .string(let text):
            return chance(50) ? .string(text + pick(Self.stringPieces)) : .string(String(text.dropLast()))
        case .bytes(let data):
            return chance(50) ? .bytes(data + [pick(Self.bytePieces)]) : .bytes(Array(data.dropLast()))
        case .timestamp(let timestamp):
            let nanos = timestamp.nanoseconds + pick([-1, 1])
            return .timestamp((try? Timestamp(seconds: timestamp.seconds, nanoseconds: nanos)) ?? timestamp)
        case .array(var elements):
            if elements.isEmpty || chance(30) { return .array(elements + [self.value(depth: 1)]) }
            let index = below(elements.count)
            if chance(30) { elements.remove(at: index) } else { elements[index] = mutate(elements[index]) }
            return .array(elements)
        case .map(let map) where map.isVector:
            var elements = map.vectorElements!
            let index = below(elements.count)
            switch below(4) {
            case 0: elements.append(double())
            case 1: elements[index] = elements[index] == 0 ? -elements[index] : elements[index].nextUp
            case 2: elements[index] = elements[index].nextDown
            default: if elements.count > 1 { elements.remove(at: index) }
            }
            return .vector(elements)
        case .map(var map):
            if map.isEmpty || chance(30) {
                map[key()] = self.value(depth: 1)
            } else {
                let key = map.keys[below(map.count)]
                map[key] = chance(30) ? nil : mutate(map[key]!)
            }
            return .map(map)
        default:
            return self.value(depth: 1)
        }
    }

    /// A value equal to `value` in Firestore's order but often stored differently: integers as
    /// doubles and back where exact, `-0.0` for `0.0` (not inside geo points), another NaN bit
    /// pattern, recursively.
    static func equivalent(_ value: Value) -> Value {
        switch value {
        case .integer(let integer):
            let double = Double(integer)
            return double < 0x1p63 && Int64(double) == integer ? .double(double) : value
        case .double(let double):
            if double.isNaN { return .double(double.sign == .minus ? .nan : -.nan) }
            if double == 0 { return .double(double.sign == .minus ? 0.0 : -0.0) }
            if double == double.rounded(), double >= -0x1p63, double < 0x1p63 { return .integer(Int64(double)) }
            return value
        case .geoPoint:
            // Geo points tell -0.0 from 0.0 (as Google's emulator does): no other twin.
            return value
        case .array(let elements): return .array(elements.map(equivalent))
        case .map(let map) where map.isVector:
            // Vector elements are equal only when identical; NaN's bit pattern is free.
            return .vector(map.vectorElements!.map { $0.isNaN ? ($0.sign == .minus ? .nan : -.nan) : $0 })
        case .map(let map):
            return .map(MapValue(uniqueKeysWithValues: map.entries.map { ($0.key, equivalent($0.value)) }))
        default: return value
        }
    }
}

/// Compares byte strings lexicographically, as LevelDB's default comparator does: -1, 0 or 1.
func compareBytes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    for (left, right) in zip(lhs, rhs) where left != right { return left < right ? -1 : 1 }
    return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
}

/// -1, 0 or 1.
func sign(_ order: Int) -> Int { order < 0 ? -1 : (order > 0 ? 1 : 0) }

/// A short, unambiguous rendering of a value for failure messages.
func render(_ value: Value) -> String {
    switch value {
    case .null: "null"
    case .boolean(let flag): "\(flag)"
    case .integer(let integer): "int(\(integer))"
    case .double(let double): "double(\(double), bits 0x\(String(double.bitPattern, radix: 16)))"
    case .timestamp(let timestamp): "ts(\(timestamp.seconds), \(timestamp.nanoseconds))"
    case .string(let text): "string(\(text.unicodeScalars.map { String($0.value, radix: 16) }))"
    case .bytes(let data): "bytes(\(data))"
    case .reference(let name): "ref(\(name.resourceName.debugDescription))"
    case .geoPoint(let point): "geo(\(point.latitude), \(point.longitude))"
    case .array(let elements): "[" + elements.map(render).joined(separator: ", ") + "]"
    case .map(let map):
        "{" + map.entries.map { "\($0.key.debugDescription): \(render($0.value))" }.joined(separator: ", ") + "}"
    }
}
