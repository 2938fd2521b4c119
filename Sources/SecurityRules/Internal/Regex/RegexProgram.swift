/// One instruction of a compiled regular expression (a Thompson NFA, run by `PikeVM`).
enum RegexInstruction: Sendable {
    /// Consumes a character of the class with this index.
    case characters(Int)
    case any
    case anyButNewline
    /// Continues at both; the first has priority (leftmost-first semantics).
    case split(Int, Int)
    case jump(Int)
    case save(Int)
    case assertion(RegexNode.Assertion)
    case match
}

/// A compiled regular expression.
struct RegexProgram: Sendable {
    var instructions: [RegexInstruction] = []
    var classes: [CharacterClass] = []
    var captureCount = 0

    static let maximumInstructions = 30_000

    struct TooLarge: Error {}

    static func compile(_ node: RegexNode, captures: Int) -> RegexProgram? {
        var program = RegexProgram()
        program.captureCount = captures
        do {
            program.emit(.save(0))
            try program.compile(node)
            program.emit(.save(1))
            program.emit(.match)
        } catch {
            return nil
        }
        return program
    }

    @discardableResult
    mutating func emit(_ instruction: RegexInstruction) -> Int {
        instructions.append(instruction)
        return instructions.count - 1
    }

    mutating func compile(_ node: RegexNode) throws {
        guard instructions.count < RegexProgram.maximumInstructions else { throw TooLarge() }
        switch node {
        case .empty:
            break
        case .characters(let set):
            if let existing = classes.firstIndex(of: set) {
                emit(.characters(existing))
            } else {
                classes.append(set)
                emit(.characters(classes.count - 1))
            }
        case .any(let newline):
            emit(newline ? .any : .anyButNewline)
        case .assertion(let assertion):
            emit(.assertion(assertion))
        case .capture(let number, let body):
            emit(.save(number * 2))
            try compile(body)
            emit(.save(number * 2 + 1))
        case .concat(let items):
            for item in items { try compile(item) }
        case .alternate(let branches):
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = emit(.split(0, 0))
                    try compile(branch)
                    jumps.append(emit(.jump(0)))
                    instructions[split] = .split(split + 1, instructions.count)
                } else {
                    try compile(branch)
                }
            }
            for jump in jumps { instructions[jump] = .jump(instructions.count) }
        case .repeat(let body, let min, let max, let greedy):
            for _ in 0..<min { try compile(body) }
            if let max {
                // Nested optional copies: (body (body ...)?)?
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(emit(.split(0, 0)))
                    let start = instructions.count
                    try compile(body)
                    _ = start
                }
                let end = instructions.count
                for split in splits {
                    instructions[split] = greedy ? .split(split + 1, end) : .split(end, split + 1)
                }
            } else {
                let loop = emit(.split(0, 0))
                try compile(body)
                emit(.jump(loop))
                let end = instructions.count
                instructions[loop] = greedy ? .split(loop + 1, end) : .split(end, loop + 1)
            }
        }
    }

    func consumes(_ pc: Int, _ scalar: UInt32) -> Bool {
        switch instructions[pc] {
        case .characters(let index): classes[index].contains(scalar)
        case .any: true
        case .anyButNewline: scalar != 0x0A
        default: false
        }
    }

    static func isWord(_ scalar: UInt32?) -> Bool {
        guard let scalar else { return false }
        return scalar < 0x80 && CharacterClass.word.contains(scalar)
    }

    static func assertionHolds(_ assertion: RegexNode.Assertion, _ input: [UInt32], _ position: Int) -> Bool {
        let previous = position > 0 ? input[position - 1] : nil
        let next = position < input.count ? input[position] : nil
        switch assertion {
        case .beginText: return position == 0
        case .endText: return position == input.count
        case .beginLine: return previous == nil || previous == 0x0A
        case .endLine: return next == nil || next == 0x0A
        case .wordBoundary: return isWord(previous) != isWord(next)
        case .notWordBoundary: return isWord(previous) == isWord(next)
        }
    }
}
