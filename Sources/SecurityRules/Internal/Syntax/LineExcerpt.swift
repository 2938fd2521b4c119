/// The part of a source line a diagnostic shows: the whole line, or for a line longer than
/// `LineExcerpt.width` characters a window of that many around the diagnostic's position, with
/// `…` where the line was cut.
///
/// It is copied from the source's scalars without reading the rest of the line, so a file with
/// a very long line and a diagnostic at every token is checked in linear time (copying the
/// whole line into each diagnostic made a 75,000-character line take minutes).
struct LineExcerpt {
    /// The excerpt.
    let text: String
    /// The column of `text`, from 1, at which the diagnostic's position is.
    let column: Int

    /// The most characters of a line an excerpt holds (besides the ellipses).
    static let width = 200

    /// The excerpt of the line of `location` in `source`, around it.
    init(of source: SourceText, at location: SourceLocation) {
        let line = source.lineBounds(location.line)
        var window = line
        if line.count > LineExcerpt.width {
            let start = min(max(line.lowerBound, location.offset - LineExcerpt.width / 2), line.upperBound - LineExcerpt.width)
            window = start..<start + LineExcerpt.width
        }
        let cutBefore = window.lowerBound > line.lowerBound
        var text = String.UnicodeScalarView()
        if cutBefore { text.append("…") }
        text.append(contentsOf: source.scalars[window])
        if window.upperBound < line.upperBound { text.append("…") }
        self.text = String(text)
        self.column = location.offset - window.lowerBound + 1 + (cutBefore ? 1 : 0)
    }
}
