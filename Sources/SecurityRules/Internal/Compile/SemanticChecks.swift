extension Compiler {
    /// Google's compiler rejects expressions nested 100 deep ("Expression is too complex to
    /// evaluate safely."), counting its grammar's expression levels: operators and primaries add
    /// a level, member access, indexing and calls do not (their arguments do).
    func checkDepth(_ root: ExprID) {
        let limit = 100
        func visit(_ id: ExprID, _ depth: Int) {
            if depth >= limit {
                diagnostics.error("Expression is too complex to evaluate safely.", at: tree[id].span)
                return
            }
            switch tree[id].kind {
            case .binary(_, let left, let right):
                visit(left, depth + 1)
                visit(right, depth + 1)
            case .ternary(let a, let b, let c):
                visit(a, depth + 1)
                visit(b, depth + 1)
                visit(c, depth + 1)
            case .isType(let operand, _, _), .unary(.not, let operand):
                visit(operand, depth + 1)
            case .unary(.negate, let operand):
                chain(operand, depth)
            default:
                chain(id, depth)
            }
        }
        func chain(_ id: ExprID, _ depth: Int) {
            switch tree[id].kind {
            case .member(let base, _, _):
                chain(base, depth)
            case .index(let base, let index):
                chain(base, depth)
                visit(index, depth + 1)
            case .range(let base, let from, let to):
                chain(base, depth)
                if let from { visit(from, depth + 1) }
                if let to { visit(to, depth + 1) }
            case .call(let callee, let arguments):
                chain(callee, depth)
                for argument in arguments { visit(argument, depth + 1) }
            case .paren(let inner):
                visit(inner, depth + 1)
            case .list(let elements):
                for element in elements { visit(element, depth + 1) }
            case .map(let entries):
                for entry in entries {
                    visit(entry.key, depth + 1)
                    visit(entry.value, depth + 1)
                }
            case .path(let parts):
                for case .interpolation(let inner) in parts { visit(inner, depth + 1) }
            case .binary, .ternary, .isType, .unary:
                visit(id, depth)
            default:
                break
            }
        }
        visit(root, 1)
    }
}

/// The checks of the call graph of user functions: no recursion, no cycles, and calls nested
/// at most 20 deep, with Google's messages.
struct CallGraphCheck {
    let functions: [FunctionInfo]
    let diagnostics: DiagnosticSink

    static let maximumDepth = 20

    func run() {
        let ordered = functions.sorted { $0.declaration.nameSpan.start < $1.declaration.nameSpan.start }
        var inCycle: Set<ObjectIdentifier> = []
        for function in ordered where function.callees.contains(where: { $0.info === function }) {
            diagnostics.error("Recursive call is not allowed.", at: function.declaration.nameSpan)
            inCycle.insert(ObjectIdentifier(function))
        }
        // Cycles between different functions: depth-first search with a stack.
        var state: [ObjectIdentifier: Int] = [:]  // 1 on the stack, 2 done
        var stack: [FunctionInfo] = []
        func search(_ function: FunctionInfo) {
            state[ObjectIdentifier(function)] = 1
            stack.append(function)
            for callee in function.callees.map(\.info) where callee !== function {
                switch state[ObjectIdentifier(callee)] {
                case 1:
                    let start = stack.firstIndex { $0 === callee }!
                    let cycle = Array(stack[start...])
                    if cycle.allSatisfy({ !inCycle.contains(ObjectIdentifier($0)) }) {
                        let first = cycle.min { $0.declaration.nameSpan.start < $1.declaration.nameSpan.start }!
                        let names = cycle.map(\.declaration.name).joined(separator: ",")
                        diagnostics.error("Detected a call cycle between [\(names)] functions.", at: first.declaration.nameSpan)
                    }
                    for member in cycle { inCycle.insert(ObjectIdentifier(member)) }
                case nil:
                    search(callee)
                default:
                    break
                }
            }
            stack.removeLast()
            state[ObjectIdentifier(function)] = 2
        }
        for function in ordered where state[ObjectIdentifier(function)] == nil { search(function) }
        guard inCycle.isEmpty else { return }
        // Depth: the longest chain of calls from each function.
        var height: [ObjectIdentifier: Int] = [:]
        var next: [ObjectIdentifier: FunctionInfo] = [:]
        func measure(_ function: FunctionInfo) -> Int {
            if let known = height[ObjectIdentifier(function)] { return known }
            var best = 1
            for callee in function.callees.map(\.info) {
                let candidate = measure(callee) + 1
                if candidate > best {
                    best = candidate
                    next[ObjectIdentifier(function)] = callee
                }
            }
            height[ObjectIdentifier(function)] = best
            return best
        }
        let limit = CallGraphCheck.maximumDepth + 1
        var reported: Set<ObjectIdentifier> = []
        let tallest = ordered.map { ($0, measure($0)) }.filter { $0.1 > limit }.sorted { $0.1 > $1.1 }
        for (root, _) in tallest.prefix(1) {
            var chain = [root]
            while chain.count <= limit, let callee = next[ObjectIdentifier(chain.last!)] { chain.append(callee) }
            let offender = chain[limit]
            guard reported.insert(ObjectIdentifier(offender)).inserted else { continue }
            let names = chain[..<limit].map(\.declaration.name).joined(separator: "->")
            diagnostics.error(
                "Maximum allowed call depth of \(CallGraphCheck.maximumDepth) is reached for [\(names)] call stack.",
                at: offender.declaration.nameSpan)
        }
    }
}
