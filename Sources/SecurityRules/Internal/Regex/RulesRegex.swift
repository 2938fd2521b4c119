import Synchronization

/// A compiled regular expression with the operations of the rules language: whole-string
/// matching (`matches`), splitting and replacing with Java's (RE2/J's) conventions.
final class RulesRegex: Sendable {
    let program: RegexProgram
    let dfa: RegexDFA?

    init?(_ pattern: String) {
        guard let (node, captures) = RegexParser.parse(pattern),
            let program = RegexProgram.compile(node, captures: captures)
        else { return nil }
        self.program = program
        self.dfa = RegexDFA(program)
    }

    func matchesFully(_ text: String) -> Bool {
        if let dfa { return dfa.matches(text) }
        let input = text.unicodeScalars.map(\.value)
        return PikeVM(program: program).search(input, from: 0, anchored: true, full: true) != nil
    }

    /// Successive matches as Java's `Matcher.find` finds them: after an empty match the next
    /// search starts one character later.
    func matches(in input: [UInt32], limit: Int = .max) -> [[Int]] {
        var results: [[Int]] = []
        var position = 0
        let vm = PikeVM(program: program)
        while position <= input.count, results.count < limit {
            guard let captures = vm.search(input, from: position) else { break }
            results.append(captures)
            position = captures[1] == captures[0] ? captures[1] + 1 : captures[1]
        }
        return results
    }

    static func string(_ input: [UInt32], _ range: Range<Int>) -> String {
        var text = String.UnicodeScalarView()
        for value in input[range] { text.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
        return String(text)
    }

    /// `string.split(regex)` as Google's runtime splits: empty pieces between consecutive
    /// matches are kept unless they trail; no match leaves the whole string.
    func split(_ text: String) -> [String] {
        let input = text.unicodeScalars.map(\.value)
        var pieces: [String] = []
        var last = 0
        var pendingEmpty = 0
        var added = false
        for captures in matches(in: input) {
            let (start, end) = (captures[0], captures[1])
            if start == last {
                pendingEmpty += 1
                last = end
                continue
            }
            pieces += Array(repeating: "", count: pendingEmpty)
            pendingEmpty = 0
            pieces.append(RulesRegex.string(input, last..<start))
            added = true
            last = end
        }
        if last != input.count {
            pieces += Array(repeating: "", count: pendingEmpty)
            pieces.append(RulesRegex.string(input, last..<input.count))
            added = true
        }
        if !added { pieces.append(RulesRegex.string(input, min(last, input.count)..<input.count)) }
        return pieces
    }

    /// `string.replace(regex, replacement)`: every match replaced; `$n` and `${name}` refer to
    /// groups and `\x` is `x`, as in Java's `Matcher.replaceAll`. `nil` past `limit` bytes.
    func replaceAll(_ text: String, with replacement: String, limit: Int) -> String? {
        let input = text.unicodeScalars.map(\.value)
        let template = Array(replacement.unicodeScalars)
        var output = String.UnicodeScalarView()
        var last = 0
        var size = 0
        for captures in matches(in: input) {
            output.append(contentsOf: RulesRegex.string(input, last..<captures[0]).unicodeScalars)
            var index = 0
            while index < template.count {
                let scalar = template[index]
                if scalar == "\\", index + 1 < template.count {
                    output.append(template[index + 1])
                    index += 2
                } else if scalar == "$", index + 1 < template.count, let first = template[index + 1].properties.numericType,
                    first == .decimal, let digit = Int(String(template[index + 1]))
                {
                    var group = digit
                    index += 2
                    while index < template.count, let value = Int(String(template[index])),
                        group * 10 + value <= program.captureCount
                    {
                        group = group * 10 + value
                        index += 1
                    }
                    if group <= program.captureCount, captures[group * 2] >= 0 {
                        output.append(
                            contentsOf: RulesRegex.string(input, captures[group * 2]..<captures[group * 2 + 1])
                                .unicodeScalars)
                    }
                } else {
                    output.append(scalar)
                    index += 1
                }
            }
            last = captures[1]
            size = output.count
            if size > limit { return nil }
        }
        output.append(contentsOf: RulesRegex.string(input, last..<input.count).unicodeScalars)
        return String(output)
    }
}

/// Compiled expressions by pattern, shared by all evaluations; bounded.
final class RegexCache: Sendable {
    static let shared = RegexCache()
    private let entries = Mutex<[String: RulesRegex?]>([:])
    static let capacity = 512

    /// The compiled pattern, or `nil` if it is not valid RE2.
    func regex(_ pattern: String) -> RulesRegex? {
        if let cached = entries.withLock({ $0[pattern] }) { return cached }
        let compiled = RulesRegex(pattern)
        entries.withLock { entries in
            if entries.count >= RegexCache.capacity { entries.removeAll(keepingCapacity: true) }
            entries[pattern] = compiled
        }
        return compiled
    }
}
