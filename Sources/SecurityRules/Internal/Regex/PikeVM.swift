/// Runs a `RegexProgram` over an input in time linear in the input times the program, with
/// leftmost-first (Perl, RE2) priorities and capture positions.
struct PikeVM {
    let program: RegexProgram

    private struct Thread {
        var pc: Int
        var captures: [Int]
    }

    /// The capture positions (`[start0, end0, start1, end1, ...]`, -1 when unset) of the first
    /// match starting at or after `start`; with `anchored`, only starting at `start`; with
    /// `full`, only matches that end at the end of the input.
    func search(_ input: [UInt32], from start: Int, anchored: Bool = false, full: Bool = false) -> [Int]? {
        let slotCount = (program.captureCount + 1) * 2
        var current: [Thread] = []
        var next: [Thread] = []
        var onList = [Int](repeating: -1, count: program.instructions.count)
        var matched: [Int]?
        var position = start
        let empty = [Int](repeating: -1, count: slotCount)

        func add(_ list: inout [Thread], _ pc: Int, _ captures: [Int], _ position: Int, _ generation: Int) {
            var stack: [(Int, [Int])] = [(pc, captures)]
            while let (pc, captures) = stack.popLast() {
                guard onList[pc] != generation else { continue }
                onList[pc] = generation
                switch program.instructions[pc] {
                case .jump(let target):
                    stack.append((target, captures))
                case .split(let first, let second):
                    stack.append((second, captures))
                    stack.append((first, captures))
                case .save(let slot):
                    var updated = captures
                    if slot < updated.count { updated[slot] = position }
                    stack.append((pc + 1, updated))
                case .assertion(let assertion):
                    if RegexProgram.assertionHolds(assertion, input, position) { stack.append((pc + 1, captures)) }
                default:
                    list.append(Thread(pc: pc, captures: captures))
                }
            }
        }

        var generation = 0
        add(&current, 0, empty, position, generation)
        while true {
            generation += 1
            next.removeAll(keepingCapacity: true)
            let scalar: UInt32? = position < input.count ? input[position] : nil
            for thread in current {
                switch program.instructions[thread.pc] {
                case .match:
                    if !full || position == input.count {
                        matched = thread.captures
                        // Lower-priority threads are cut off.
                        break
                    }
                    continue
                default:
                    if let scalar, program.consumes(thread.pc, scalar) {
                        add(&next, thread.pc + 1, thread.captures, position + 1, generation)
                    }
                    continue
                }
                break
            }
            if position >= input.count { break }
            position += 1
            if matched == nil && !anchored {
                add(&next, 0, empty, position, generation)
            }
            if next.isEmpty { break }
            swap(&current, &next)
        }
        return matched
    }
}
