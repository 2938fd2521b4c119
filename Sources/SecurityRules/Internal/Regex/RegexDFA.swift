/// A deterministic automaton for whole-string matching (`string.matches`), built eagerly from
/// a program without line or word assertions. Characters are grouped into classes that every
/// instruction treats alike, so the transition table stays small.
struct RegexDFA: Sendable {
    /// Class boundaries: a scalar's class is the number of boundaries at or below it.
    let boundaries: [UInt32]
    let asciiClasses: [UInt8]
    /// `asciiTransitions[state * 128 + byte]`: `transitions` by ASCII byte rather than class
    /// (one lookup per character); empty for automata of more than `asciiTableStates` states.
    let asciiTransitions: [Int32]
    let classCount: Int
    /// `transitions[state * classCount + class]`, -1 for the dead state.
    let transitions: [Int32]
    let acceptsAtEnd: [Bool]
    let start: Int32

    static let maximumStates = 400
    /// The most states for which `asciiTransitions` is built (16 KB; most patterns of rules
    /// have a few states).
    static let asciiTableStates = 32

    init?(_ program: RegexProgram) {
        for instruction in program.instructions {
            if case .assertion(let assertion) = instruction, assertion != .beginText, assertion != .endText {
                return nil
            }
        }
        var cuts: Set<UInt32> = [0x0A, 0x0B]
        for set in program.classes {
            for range in set.ranges {
                cuts.insert(range.lowerBound)
                if range.upperBound < CharacterClass.maxScalar { cuts.insert(range.upperBound + 1) }
            }
        }
        cuts.remove(0)
        let boundaries = cuts.sorted()
        let classCount = boundaries.count + 1
        let representatives = [UInt32(0)] + boundaries

        func closure(_ seeds: [Int], atStart: Bool, atEnd: Bool) -> [Int] {
            var seen = Set<Int>()
            var stack = seeds.reversed() as [Int]
            var result: [Int] = []
            while let pc = stack.popLast() {
                guard seen.insert(pc).inserted else { continue }
                switch program.instructions[pc] {
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .save: stack.append(pc + 1)
                case .assertion(.beginText): if atStart { stack.append(pc + 1) }
                case .assertion(.endText):
                    if atEnd { stack.append(pc + 1) } else { result.append(pc) }
                case .assertion: break
                default: result.append(pc)
                }
            }
            return result.sorted()
        }

        var states: [[Int]] = []
        var index: [[Int]: Int32] = [:]
        var transitions: [Int32] = []
        var queue: [Int] = []
        func state(_ set: [Int]) -> Int32? {
            if set.isEmpty { return -1 }
            if let existing = index[set] { return existing }
            guard states.count < RegexDFA.maximumStates else { return nil }
            let id = Int32(states.count)
            states.append(set)
            index[set] = id
            transitions.append(contentsOf: repeatElement(-1, count: classCount))
            queue.append(Int(id))
            return id
        }
        guard let start = state(closure([0], atStart: true, atEnd: false)) else { return nil }
        while let current = queue.popLast() {
            let set = states[current]
            for characterClass in 0..<classCount {
                let scalar = representatives[characterClass]
                let seeds = set.filter { program.consumes($0, scalar) }.map { $0 + 1 }
                guard let target = state(closure(seeds, atStart: false, atEnd: false)) else { return nil }
                transitions[current * classCount + characterClass] = target
            }
        }
        self.boundaries = boundaries
        self.classCount = classCount
        self.transitions = transitions
        self.start = start
        let asciiClasses = (0..<128).map { UInt8(RegexDFA.classOf(UInt32($0), boundaries: boundaries)) }
        self.asciiClasses = asciiClasses
        self.asciiTransitions =
            states.count > RegexDFA.asciiTableStates
            ? []
            : (0..<states.count * 128).map { transitions[($0 / 128) * classCount + Int(asciiClasses[$0 % 128])] }
        self.acceptsAtEnd = states.map { set in
            closure(set, atStart: false, atEnd: true).contains { pc in
                if case .match = program.instructions[pc] { return true }
                return false
            }
        }
    }

    func classOf(_ scalar: UInt32) -> Int {
        if scalar < 128 { return Int(asciiClasses[Int(scalar)]) }
        return RegexDFA.classOf(scalar, boundaries: boundaries)
    }

    /// The class of `scalar`: how many of the sorted `boundaries` are at or below it.
    private static func classOf(_ scalar: UInt32, boundaries: [UInt32]) -> Int {
        var low = 0
        var high = boundaries.count
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] <= scalar { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether the whole string matches.
    func matches(_ text: String) -> Bool {
        if let verdict = matchesASCII(text) { return verdict }
        var state = Int(start)
        for scalar in text.unicodeScalars {
            let next = transitions[state * classCount + classOf(scalar.value)]
            if next < 0 { return false }
            state = Int(next)
        }
        return acceptsAtEnd[state]
    }

    /// Whether the whole string matches, read byte by byte through `asciiTransitions` while the
    /// bytes are ASCII (each is then a scalar); `nil` at a non-ASCII byte or without the table.
    private func matchesASCII(_ text: String) -> Bool? {
        guard !asciiTransitions.isEmpty else { return nil }
        var state = Int(start)
        let bytes = text.utf8.span
        for index in bytes.indices {
            let byte = bytes[index]
            if byte >= 0x80 { return nil }
            let next = asciiTransitions[state &* 128 &+ Int(byte)]
            // The dead state rejects whatever follows.
            if next < 0 { return false }
            state = Int(next)
        }
        return acceptsAtEnd[state]
    }
}
