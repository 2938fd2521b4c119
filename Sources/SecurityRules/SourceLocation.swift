/// A position in a rules source file.
///
/// Lines and columns count from 1; columns and offsets count Unicode scalars, as Google's rules
/// compiler counts characters.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name of the file, as given to `Ruleset(source:fileName:)`.
    public let fileName: String
    /// The line, from 1.
    public let line: Int
    /// The column, from 1.
    public let column: Int
    /// The offset from the start of the file, from 0.
    public let offset: Int

    /// Creates a location.
    public init(fileName: String, line: Int, column: Int, offset: Int) {
        self.fileName = fileName
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `file:line:col`.
    public var description: String { "\(fileName):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A stretch of a rules source file: from `start` up to, not including, `end`.
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// The first character.
    public let start: SourceLocation
    /// The position just after the last character.
    public let end: SourceLocation

    /// Creates a range.
    public init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = end
    }

    /// `file:line:col-line:col`.
    public var description: String { "\(start)-\(end.line):\(end.column)" }
}
