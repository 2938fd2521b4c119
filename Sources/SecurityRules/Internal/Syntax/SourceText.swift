/// Offsets into a source text, `start ..< end`, in Unicode scalars.
struct SourceSpan: Sendable, Hashable {
    var start: Int32
    var end: Int32

    init(_ start: Int, _ end: Int) {
        self.start = Int32(truncatingIfNeeded: start)
        self.end = Int32(truncatingIfNeeded: end)
    }

    static let none = SourceSpan(0, 0)

    /// The span from the start of `self` to the end of `other`.
    func through(_ other: SourceSpan) -> SourceSpan {
        SourceSpan(Int(start), Int(max(end, other.end)))
    }
}

/// A rules source held as Unicode scalars, with a table of line starts, so the lexer reads by
/// index and diagnostics find a line and column in logarithmic time.
final class SourceText: Sendable {
    let fileName: String
    let text: String
    let scalars: [Unicode.Scalar]
    /// The offset at which each line starts; line 1 starts at 0.
    let lineStarts: [Int]

    init(_ text: String, fileName: String) {
        self.text = text
        self.fileName = fileName
        let scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (index, scalar) in scalars.enumerated() where scalar == "\n" {
            starts.append(index + 1)
        }
        self.scalars = scalars
        self.lineStarts = starts
    }

    var count: Int { scalars.count }

    /// The 1-based line and column of an offset.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }

    func location(of offset: Int) -> SourceLocation {
        let clamped = min(max(offset, 0), scalars.count)
        let (line, column) = lineAndColumn(of: clamped)
        return SourceLocation(fileName: fileName, line: line, column: column, offset: clamped)
    }

    func range(of span: SourceSpan) -> SourceRange {
        SourceRange(start: location(of: Int(span.start)), end: location(of: Int(span.end)))
    }

    /// The offsets of a line (1-based), without its line break; empty for a line that does not exist.
    func lineBounds(_ line: Int) -> Range<Int> {
        guard line >= 1, line <= lineStarts.count else { return 0..<0 }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : scalars.count
        if end > start, scalars[end - 1] == "\r" { end -= 1 }
        return start..<max(start, end)
    }

    /// The text of a line (1-based), without its line break.
    func lineText(_ line: Int) -> String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[lineBounds(line)])
        return String(result)
    }

    /// The source text of a span.
    func slice(_ span: SourceSpan) -> String {
        let start = Int(max(0, span.start))
        let end = min(Int(span.end), scalars.count)
        guard start < end else { return "" }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[start..<end])
        return String(result)
    }
}
