extension RegexParser {
    /// An escape outside a class.
    mutating func parseEscape(_ flags: Flags) throws -> RegexNode? {
        let scalar = try next()
        switch scalar {
        case RegexParser.char("A"): return .assertion(.beginText)
        case RegexParser.char("z"): return .assertion(.endText)
        case RegexParser.char("b"): return .assertion(.wordBoundary)
        case RegexParser.char("B"): return .assertion(.notWordBoundary)
        default:
            index -= 1
            return .characters(try parseClassEscape().finish(fold: flags.caseInsensitive))
        }
    }

    /// The characters of an escape: a positive set, and whether the escape negates it. Under
    /// `(?i)` RE2 folds the positive set, then negates.
    struct EscapedClass {
        var set: CharacterClass
        var negated = false
        /// For a Unicode class (`\p{...}`): RE2/J adds these under `(?i)` instead of folding.
        var foldAdditions: CharacterClass?

        var single: UInt32? {
            guard !negated, set.ranges.count == 1, set.ranges[0].count == 1 else { return nil }
            return set.ranges[0].lowerBound
        }

        func finish(fold: Bool) -> CharacterClass {
            let folded = !fold ? set : foldAdditions.map { set.union($0) } ?? set.caseFolded
            return negated ? folded.inverted : folded
        }
    }

    /// An escape that stands for characters (inside or outside a class); at the backslash's successor.
    mutating func parseClassEscape() throws -> EscapedClass {
        let scalar = try next()
        func single(_ value: UInt32) -> EscapedClass { EscapedClass(set: CharacterClass([value...value])) }
        switch scalar {
        case RegexParser.char("d"): return EscapedClass(set: .digit)
        case RegexParser.char("D"): return EscapedClass(set: .digit, negated: true)
        case RegexParser.char("s"): return EscapedClass(set: .space)
        case RegexParser.char("S"): return EscapedClass(set: .space, negated: true)
        case RegexParser.char("w"): return EscapedClass(set: .word)
        case RegexParser.char("W"): return EscapedClass(set: .word, negated: true)
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
            guard let named = UnicodeClasses.named(name) else { throw Failure() }
            return EscapedClass(set: named.set, negated: negated, foldAdditions: named.foldAdditions)
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

    /// A bracketed class; after the `[`. Under `(?i)` (`fold`) every item is folded before
    /// the class is negated, as RE2 does.
    mutating func parseClass(fold: Bool) throws -> CharacterClass {
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
                if let (item, length) = posixClass() {
                    ranges += item.finish(fold: fold).ranges
                    index += length
                    continue
                }
            }
            let low: EscapedClass
            if scalar == RegexParser.char("\\") {
                index += 1
                low = try parseClassEscape()
            } else {
                index += 1
                low = EscapedClass(set: CharacterClass([scalar...scalar]))
            }
            if let lowValue = low.single, peek() == RegexParser.char("-"), let after = peek(1),
                after != RegexParser.char("]")
            {
                index += 1
                let high: EscapedClass
                if after == RegexParser.char("\\") {
                    index += 1
                    high = try parseClassEscape()
                } else {
                    index += 1
                    high = EscapedClass(set: CharacterClass([after...after]))
                }
                guard let highValue = high.single, highValue >= lowValue else { throw Failure() }
                let range = CharacterClass([lowValue...highValue])
                ranges += (fold ? range.caseFolded : range).ranges
            } else {
                ranges += low.finish(fold: fold).ranges
            }
        }
        index += 1
        let set = CharacterClass(ranges)
        return negated ? set.inverted : set
    }

    /// `[:alpha:]` or `[:^alpha:]` at the current position.
    func posixClass() -> (EscapedClass, Int)? {
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
        return (EscapedClass(set: set, negated: negated), offset + 2)
    }
}
