/// The syntax tree of an RE2 regular expression.
indirect enum RegexNode: Sendable {
    enum Assertion: Sendable {
        case beginLine, endLine, beginText, endText, wordBoundary, notWordBoundary
    }

    case empty
    case characters(CharacterClass)
    case any(newline: Bool)
    case assertion(Assertion)
    case capture(Int, RegexNode)
    case concat([RegexNode])
    case alternate([RegexNode])
    case `repeat`(RegexNode, min: Int, max: Int?, greedy: Bool)

    /// An empty expression or an assertion.
    var isZeroWidth: Bool {
        switch self {
        case .empty, .assertion: true
        default: false
        }
    }
}

/// Parses RE2 syntax (what Google's runtime accepts through RE2/J): no backreferences or
/// lookaround; `(?flags)` with `i`, `m`, `s`, `U`; Perl, POSIX and Unicode classes.
struct RegexParser {
    struct Failure: Error {}

    struct Flags {
        var caseInsensitive = false
        var multiline = false
        var dotAll = false
        var ungreedy = false
    }

    let scalars: [UInt32]
    var index = 0
    var captureCount = 0
    var depth = 0
    var groupNames: Set<[UInt32]> = []

    static let maximumRepeat = 1000
    static let maximumDepth = 500

    init(_ pattern: String) {
        scalars = pattern.unicodeScalars.map(\.value)
    }

    static func parse(_ pattern: String) -> (RegexNode, captures: Int)? {
        var parser = RegexParser(pattern)
        var flags = Flags()
        guard let node = try? parser.parseAlternation(&flags), parser.index == parser.scalars.count else { return nil }
        return (node, parser.captureCount)
    }

    func peek(_ ahead: Int = 0) -> UInt32? {
        index + ahead < scalars.count ? scalars[index + ahead] : nil
    }

    mutating func next() throws -> UInt32 {
        guard index < scalars.count else { throw Failure() }
        index += 1
        return scalars[index - 1]
    }

    static func char(_ character: Character) -> UInt32 { character.unicodeScalars.first!.value }

    mutating func parseAlternation(_ flags: inout Flags) throws -> RegexNode {
        depth += 1
        defer { depth -= 1 }
        guard depth < RegexParser.maximumDepth else { throw Failure() }
        var branches = [try parseConcatenation(&flags)]
        while peek() == RegexParser.char("|") {
            index += 1
            branches.append(try parseConcatenation(&flags))
        }
        return branches.count == 1 ? branches[0] : .alternate(branches)
    }

    mutating func parseConcatenation(_ flags: inout Flags) throws -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = peek(), scalar != RegexParser.char("|"), scalar != RegexParser.char(")") {
            if scalar == RegexParser.char("\\"), peek(1) == RegexParser.char("Q") {
                // `\Q...\E`: literals, of which a quantifier takes the last.
                index += 2
                var literals: [RegexNode] = []
                while index < scalars.count {
                    if peek() == RegexParser.char("\\") && peek(1) == RegexParser.char("E") {
                        index += 2
                        break
                    }
                    literals.append(literal(try next(), flags))
                }
                if let last = literals.popLast() {
                    items += literals
                    items.append(try parseQuantifiers(last, flags))
                }
                continue
            }
            if let atom = try parseAtom(&flags) {
                items.append(try parseQuantifiers(atom, flags))
            }
        }
        return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concat(items))
    }

    mutating func parseQuantifiers(_ atom: RegexNode, _ flags: Flags) throws -> RegexNode {
        guard let scalar = peek() else { return atom }
        var min = 0
        var max: Int?
        switch scalar {
        case RegexParser.char("*"):
            index += 1
        case RegexParser.char("+"):
            index += 1
            min = 1
        case RegexParser.char("?"):
            index += 1
            max = 1
        case RegexParser.char("{"):
            guard let (low, high, length) = repeatBounds() else { return atom }
            guard low <= RegexParser.maximumRepeat, (high ?? low) <= RegexParser.maximumRepeat, (high ?? low) >= low
            else { throw Failure() }
            index += length
            min = low
            max = high
        default:
            return atom
        }
        var greedy = true
        if peek() == RegexParser.char("?") {
            index += 1
            greedy = false
        }
        if flags.ungreedy { greedy.toggle() }
        if let next = peek(), [RegexParser.char("*"), RegexParser.char("+"), RegexParser.char("?")].contains(next) {
            throw Failure()
        }
        if peek() == RegexParser.char("{"), repeatBounds() != nil { throw Failure() }
        // A repeated empty or zero-width expression matches like the expression (once) or like
        // nothing (zero times).
        if atom.isZeroWidth { return min == 0 ? .empty : atom }
        return .repeat(atom, min: min, max: max, greedy: greedy)
    }

    /// `{n}`, `{n,}`, `{n,m}` at the current position: bounds and length, or `nil` if not one.
    func repeatBounds() -> (Int, Int?, Int)? {
        var offset = 1
        func number() -> Int? {
            var value = 0
            var digits = 0
            while let scalar = peek(offset), scalar >= 0x30, scalar <= 0x39 {
                value = min(value * 10 + Int(scalar - 0x30), 100_000)
                offset += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if peek(offset) == RegexParser.char(",") {
            offset += 1
            high = number()
        }
        guard peek(offset) == RegexParser.char("}") else { return nil }
        return (low, high, offset + 1)
    }

    func literal(_ value: UInt32, _ flags: Flags) -> RegexNode {
        let single = CharacterClass([value...value])
        return .characters(flags.caseInsensitive ? single.caseFolded : single)
    }

    mutating func parseAtom(_ flags: inout Flags) throws -> RegexNode? {
        let scalar = try next()
        switch scalar {
        case RegexParser.char("("):
            return try parseGroup(&flags)
        case RegexParser.char("["):
            return .characters(try parseClass(fold: flags.caseInsensitive))
        case RegexParser.char("."):
            return .any(newline: flags.dotAll)
        case RegexParser.char("^"):
            return .assertion(flags.multiline ? .beginLine : .beginText)
        case RegexParser.char("$"):
            return .assertion(flags.multiline ? .endLine : .endText)
        case RegexParser.char("\\"):
            return try parseEscape(flags)
        case RegexParser.char("*"), RegexParser.char("+"), RegexParser.char("?"):
            throw Failure()
        default:
            return literal(scalar, flags)
        }
    }

    mutating func parseGroup(_ flags: inout Flags) throws -> RegexNode? {
        if peek() == RegexParser.char("?") {
            index += 1
            guard let kind = peek() else { throw Failure() }
            if kind == RegexParser.char("P") || kind == RegexParser.char("<") {
                // Named group: (?P<name>...) or (?<name>...).
                if kind == RegexParser.char("P") { index += 1 }
                guard try next() == RegexParser.char("<") else { throw Failure() }
                var name: [UInt32] = []
                while let c = peek(), c != RegexParser.char(">") {
                    guard c == 0x5F || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    else { throw Failure() }
                    index += 1
                    name.append(c)
                }
                // Names must be new.
                guard !name.isEmpty, groupNames.insert(name).inserted else { throw Failure() }
                index += 1
                captureCount += 1
                let number = captureCount
                var inner = flags
                let body = try parseAlternation(&inner)
                guard try next() == RegexParser.char(")") else { throw Failure() }
                return .capture(number, body)
            }
            // Flags: (?imsU-imsU) or (?imsU-imsU:...)
            var updated = flags
            var negate = false
            var sawFlag = false
            while true {
                let c = try next()
                switch c {
                case RegexParser.char("i"): updated.caseInsensitive = !negate
                case RegexParser.char("m"): updated.multiline = !negate
                case RegexParser.char("s"): updated.dotAll = !negate
                case RegexParser.char("U"): updated.ungreedy = !negate
                case RegexParser.char("-"):
                    guard !negate else { throw Failure() }
                    negate = true
                    sawFlag = false
                    continue
                case RegexParser.char(")"):
                    // `(?)` is accepted; a `-` must be followed by a flag.
                    guard sawFlag || !negate else { throw Failure() }
                    flags = updated
                    return nil
                case RegexParser.char(":"):
                    guard sawFlag || !negate else { throw Failure() }
                    var inner = updated
                    let body = try parseAlternation(&inner)
                    guard try next() == RegexParser.char(")") else { throw Failure() }
                    return body
                default:
                    throw Failure()
                }
                sawFlag = true
            }
        }
        captureCount += 1
        let number = captureCount
        var inner = flags
        let body = try parseAlternation(&inner)
        guard try next() == RegexParser.char(")") else { throw Failure() }
        return .capture(number, body)
    }
}
