/// A set of Unicode scalars as sorted, disjoint, non-adjacent inclusive ranges.
struct CharacterClass: Sendable, Hashable {
    var ranges: [ClosedRange<UInt32>]

    init(_ ranges: [ClosedRange<UInt32>] = []) {
        self.ranges = CharacterClass.normalized(ranges)
    }

    static let maxScalar: UInt32 = 0x10FFFF

    static func normalized(_ input: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        let sorted = input.sorted { $0.lowerBound < $1.lowerBound }
        var result: [ClosedRange<UInt32>] = []
        for range in sorted {
            if let last = result.last, range.lowerBound <= last.upperBound &+ 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    func contains(_ scalar: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if scalar < range.lowerBound {
                high = middle
            } else if scalar > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    var inverted: CharacterClass {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound &+ 1
            if range.upperBound == CharacterClass.maxScalar { return CharacterClass(result) }
        }
        if next <= CharacterClass.maxScalar { result.append(next...CharacterClass.maxScalar) }
        return CharacterClass(result)
    }

    func union(_ other: CharacterClass) -> CharacterClass { CharacterClass(ranges + other.ranges) }

    /// The class with every letter's other cases added (simple case folding), for `(?i)`.
    var caseFolded: CharacterClass {
        var extra: [ClosedRange<UInt32>] = []
        var budget = 5000
        for range in ranges {
            guard budget > 0 else { break }
            let upper = min(range.upperBound, range.lowerBound + UInt32(budget))
            budget -= Int(upper - range.lowerBound) + 1
            for value in range.lowerBound...upper {
                for variant in CharacterClass.caseVariants(value) where variant != value { extra.append(variant...variant) }
            }
        }
        return CharacterClass(ranges + extra)
    }

    /// The scalars a scalar folds together with (RE2's simple case folding orbit).
    static func caseVariants(_ value: UInt32) -> [UInt32] {
        UnicodeClasses.orbit(value)
    }

    // MARK: Named classes

    static let digit = CharacterClass([0x30...0x39])
    static let space = CharacterClass([0x09...0x0A, 0x0C...0x0D, 0x20...0x20])
    static let word = CharacterClass([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])

    static let posix: [String: CharacterClass] = [
        "alnum": CharacterClass([0x30...0x39, 0x41...0x5A, 0x61...0x7A]),
        "alpha": CharacterClass([0x41...0x5A, 0x61...0x7A]),
        "ascii": CharacterClass([0x00...0x7F]),
        "blank": CharacterClass([0x09...0x09, 0x20...0x20]),
        "cntrl": CharacterClass([0x00...0x1F, 0x7F...0x7F]),
        "digit": digit,
        "graph": CharacterClass([0x21...0x7E]),
        "lower": CharacterClass([0x61...0x7A]),
        "print": CharacterClass([0x20...0x7E]),
        "punct": CharacterClass([0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E]),
        "space": CharacterClass([0x09...0x0D, 0x20...0x20]),
        "upper": CharacterClass([0x41...0x5A]),
        "word": word,
        "xdigit": CharacterClass([0x30...0x39, 0x41...0x46, 0x61...0x66]),
    ]
}
