/// The positions Google's coverage report gives expressions and errors, which differ from the
/// syntax spans:
///
/// - An expression ends with its last operand, element or argument: closing `)`, `]` and `}`
///   are left out (`f(x)` ends at `x`, `f()` at `f`, `[]` at `[`).
/// - A parenthesized expression starts at its outermost `(`.
/// - An error is reported at the operator of a binary expression, otherwise at the first token
///   of the expression that raised it.
extension Compiler {
    /// The exclusive end offset of an expression as the coverage report has it.
    func coverageEnd(_ id: ExprID) -> Int32 {
        var current = id
        // Iterative: operand chains can be long.
        while true {
            let node = tree[current]
            switch node.kind {
            case .paren(let inner): current = inner
            case .list(let elements):
                guard let last = elements.last else { return node.span.start + 1 }
                current = last
            case .map(let entries):
                guard let last = entries.last else { return node.span.start + 1 }
                current = last.value
            case .index(_, let index): current = index
            case .range(let base, let from, let to):
                guard let last = to ?? from else { return coverageEnd(base) }
                current = last
            case .call(let callee, let arguments): current = arguments.last ?? callee
            case .unary(_, let operand): current = operand
            case .binary(_, _, let right): current = right
            case .ternary(_, _, let otherwise): current = otherwise
            case .path(let parts):
                guard case .interpolation(let last) = parts.last else { return node.span.end }
                current = last
            default: return node.span.end
            }
        }
    }

    /// The span under which an expression's errors are reported.
    func errorToken(_ id: ExprID) -> SourceSpan {
        let node = tree[id]
        if case .binary(let op, let left, _) = node.kind {
            let start = skipTrivia(from: Int(tree[left].span.end))
            return SourceSpan(start, min(start + op.symbol.unicodeScalars.count, source.count))
        }
        return token(at: Int(node.span.start))
    }

    /// Skips blanks, comments and closing parentheses.
    private func skipTrivia(from offset: Int) -> Int {
        let scalars = source.scalars
        var index = offset
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == ")" {
                index += 1
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { index += 1 }
                index += 2
            } else {
                break
            }
        }
        return min(index, scalars.count)
    }

    /// An approximate token at an offset: a word or one character.
    private func token(at offset: Int) -> SourceSpan {
        let scalars = source.scalars
        guard offset < scalars.count else { return SourceSpan(offset, offset) }
        let isWord = { (scalar: Unicode.Scalar) in scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) }
        var end = offset + 1
        if isWord(scalars[offset]) {
            while end < scalars.count, isWord(scalars[end]) { end += 1 }
        }
        return SourceSpan(offset, end)
    }
}
