extension RegexParser {
    /// An escape outside a class.
    mutating func parseEscape(_ flags: Flags) throws -> RegexNode? {
        let scalar = try next()
        switch scalar {
        case RegexParser.char("A"): return .assertion(.beginText)
        case RegexParser.char("z"): return .assertion(.endText)
        case RegexParser.char("b"): return .assertion(.wordBoundary)
        case RegexParser.char("B"): return .assertion(.notWordBoundary)
        case RegexParser.char("Q"):
            var items: [RegexNode] = []
            while index < scalars.count {
                if peek() == RegexParser.char("\\") && peek(1) == RegexParser.char("E") {
                    index += 2
                    break
                }
                items.append(literal(try next(), flags))
            }
            return items.isEmpty ? nil : .concat(items)
        default:
            index -= 1
            let set = try parseClassEscape()
            return .characters(flags.caseInsensitive ? set.caseFolded : set)
        }
    }

    /// An escape that stands for characters (inside or outside a class); at the backslash's successor.
    mutating func parseClassEscape() throws -> CharacterClass {
        let scalar = try next()
        func single(_ value: UInt32) -> CharacterClass { CharacterClass([value...value]) }
        switch scalar {
        case RegexParser.char("d"): return .digit
        case RegexParser.char("D"): return CharacterClass.digit.inverted
        case RegexParser.char("s"): return .space
        case RegexParser.char("S"): return CharacterClass.space.inverted
        case RegexParser.char("w"): return .word
        case RegexParser.char("W"): return CharacterClass.word.inverted
        case RegexParser.char("a"): return single(0x07)
        case RegexParser.char("f"): return single(0x0C)
        case RegexParser.char("t"): return single(0x09)
        case RegexParser.char("n"): return single(0x0A)
        case RegexParser.char("r"): return single(0x0D)
        case RegexParser.char("v"): return single(0x0B)
        case RegexParser.char("p"), RegexParser.char("P"):
            var negated = scalar == RegexParser.char("P")
            var name = ""
            if peek() == RegexParser.char("{") {
                index += 1
                while let c = peek(), c != RegexParser.char("}") {
                    name.unicodeScalars.append(Unicode.Scalar(c) ?? "?")
                    index += 1
                }
                guard try next() == RegexParser.char("}") else { throw Failure() }
            } else {
                name.unicodeScalars.append(Unicode.Scalar(try next()) ?? "?")
            }
            if name.hasPrefix("^") {
                negated.toggle()
                name.removeFirst()
            }
            guard let set = UnicodeClasses.named(name) else { throw Failure() }
            return negated ? set.inverted : set
        case RegexParser.char("x"):
            if peek() == RegexParser.char("{") {
                index += 1
                var value: UInt32 = 0
                var digits = 0
                while let c = peek(), c != RegexParser.char("}") {
                    guard let digit = hexValue(c), digits < 8 else { throw Failure() }
                    value = value * 16 + digit
                    digits += 1
                    index += 1
                }
                guard digits > 0, try next() == RegexParser.char("}"), value <= CharacterClass.maxScalar else {
                    throw Failure()
                }
                return single(value)
            }
            guard let high = hexValue(try next()), let low = hexValue(try next()) else { throw Failure() }
            return single(high * 16 + low)
        case RegexParser.char("0")...RegexParser.char("7"):
            // Octal: \0, or \1-\7 only when followed by more octal digits (otherwise a backreference).
            if scalar != RegexParser.char("0"), !(peek().map(isOctal) ?? false) { throw Failure() }
            var value = scalar - 0x30
            for _ in 0..<2 {
                guard let c = peek(), isOctal(c) else { break }
                value = value * 8 + (c - 0x30)
                index += 1
            }
            return single(value)
        default:
            // Escaped punctuation is itself; escaped letters and digits are not defined.
            let isWord = scalar < 0x80 && CharacterClass.word.contains(scalar)
            guard !isWord else { throw Failure() }
            return single(scalar)
        }
    }

    func hexValue(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    func isOctal(_ c: UInt32) -> Bool { c >= 0x30 && c <= 0x37 }

    /// A bracketed class; after the `[`.
    mutating func parseClass() throws -> CharacterClass {
        var negated = false
        if peek() == RegexParser.char("^") {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while true {
            guard let scalar = peek() else { throw Failure() }
            if scalar == RegexParser.char("]") && !first { break }
            first = false
            if scalar == RegexParser.char("[") && peek(1) == RegexParser.char(":") {
                if let (set, length) = posixClass() {
                    ranges += set.ranges
                    index += length
                    continue
                }
            }
            let low: CharacterClass
            if scalar == RegexParser.char("\\") {
                index += 1
                low = try parseClassEscape()
            } else {
                index += 1
                low = CharacterClass([scalar...scalar])
            }
            if low.ranges.count == 1, low.ranges[0].count == 1, peek() == RegexParser.char("-"),
                let after = peek(1), after != RegexParser.char("]")
            {
                index += 1
                let high: CharacterClass
                if after == RegexParser.char("\\") {
                    index += 1
                    high = try parseClassEscape()
                } else {
                    index += 1
                    high = CharacterClass([after...after])
                }
                guard high.ranges.count == 1, high.ranges[0].count == 1,
                    high.ranges[0].lowerBound >= low.ranges[0].lowerBound
                else { throw Failure() }
                ranges.append(low.ranges[0].lowerBound...high.ranges[0].lowerBound)
            } else {
                ranges += low.ranges
            }
        }
        index += 1
        let set = CharacterClass(ranges)
        return negated ? set.inverted : set
    }

    /// `[:alpha:]` or `[:^alpha:]` at the current position.
    func posixClass() -> (CharacterClass, Int)? {
        var offset = 2
        var negated = false
        if peek(offset) == RegexParser.char("^") {
            negated = true
            offset += 1
        }
        var name = ""
        while let c = peek(offset), c != RegexParser.char(":") {
            name.unicodeScalars.append(Unicode.Scalar(c) ?? "?")
            offset += 1
        }
        guard peek(offset) == RegexParser.char(":"), peek(offset + 1) == RegexParser.char("]"),
            let set = CharacterClass.posix[name]
        else { return nil }
        return (negated ? set.inverted : set, offset + 2)
    }
}
