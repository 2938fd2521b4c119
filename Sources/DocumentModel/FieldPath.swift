/// A path to a field inside a document, such as `address.city`, made of field names.
///
/// The text form is Firestore's: names that are not simple identifiers (`[A-Za-z_][A-Za-z_0-9]*`)
/// are written in back-quotes, inside which `` \` `` and `\\` escape a back-quote and a backslash:
/// ``a.`b.c`.`d\`e` `` is the three names `a`, `b.c` and ``d`e``.
///
/// ```swift
/// let path = try FieldPath("profile.`display name`")
/// path.segments   // ["profile", "display name"]
/// ```
public struct FieldPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The field names, outermost first.
    public let segments: [String]

    /// The special path `__name__` that stands for the document's name in queries.
    public static let documentName = FieldPath(validatedSegments: ["__name__"])

    /// The longest field path Firestore accepts, in bytes of its text form.
    package static let maxBytes = 1500

    /// Creates a path from field names.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for an empty list or an empty name.
    public init(segments: [String]) throws {
        guard !segments.isEmpty else { throw FirestoreError.invalidArgument("A field path must not be empty") }
        self.segments = segments
        guard !segments.contains(where: \.isEmpty) else {
            throw FirestoreError.invalidArgument("Invalid field path '\(self)': field names must not be empty")
        }
    }

    init(validatedSegments: [String]) {
        segments = validatedSegments
    }

    /// Parses the dotted, back-quoted text form.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the text for empty names, unterminated
    ///   back-quotes, bad escapes and unquoted names that are not simple identifiers.
    public init(_ text: String) throws {
        self = try FieldPathParser.parse(text)
    }

    /// The text form, quoting names that need it.
    public var description: String {
        segments.map(FieldPath.quotedIfNeeded).joined(separator: ".")
    }

    /// Whether the name can stand in a path without back-quotes.
    package static func isSimpleName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            byte == 0x5F || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
    }

    /// `name` as it appears in a path: unchanged if simple, back-quoted and escaped otherwise.
    package static func quotedIfNeeded(_ name: String) -> String {
        if isSimpleName(name) { return name }
        var quoted = "`"
        // By scalars, as the parser reads: a combining mark after a back-quote or backslash
        // would otherwise hide it inside one Character.
        for scalar in name.unicodeScalars {
            if scalar == "`" || scalar == "\\" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "`"
    }

    /// Whether this is the document-name path `__name__`.
    public var isDocumentName: Bool { segments == ["__name__"] }

    /// The path with `name` appended.
    public func appending(_ name: String) -> FieldPath {
        FieldPath(validatedSegments: segments + [name])
    }

    /// The path without its last name, or `nil` for a one-name path.
    public var parent: FieldPath? {
        segments.count > 1 ? FieldPath(validatedSegments: Array(segments.dropLast())) : nil
    }

    /// Whether `self` equals `other` or lies inside it (`a.b` is inside `a`).
    public func hasPrefix(_ other: FieldPath) -> Bool {
        other.segments.count <= segments.count
            && zip(other.segments, segments).allSatisfy { utf8Equal($0, $1) }
    }

    public static func < (lhs: FieldPath, rhs: FieldPath) -> Bool {
        for (left, right) in zip(lhs.segments, rhs.segments) {
            let order = compareUTF8(left, right)
            if order != 0 { return order < 0 }
        }
        return lhs.segments.count < rhs.segments.count
    }

    public static func == (lhs: FieldPath, rhs: FieldPath) -> Bool {
        lhs.segments.count == rhs.segments.count
            && zip(lhs.segments, rhs.segments).allSatisfy { utf8Equal($0, $1) }
    }

    public func hash(into hasher: inout Hasher) {
        for segment in segments {
            hasher.combineUTF8(segment)
        }
    }
}

/// Parses the text form of a field path.
enum FieldPathParser {
    static func parse(_ text: String) throws -> FieldPath {
        func fail(_ reason: String) -> FirestoreError {
            FirestoreError.invalidArgument("Invalid field path '\(text)': \(reason)")
        }
        guard !text.isEmpty else { throw FirestoreError.invalidArgument("A field path must not be empty") }
        var segments: [String] = []
        var current = ""
        var quoted = false
        var wasQuoted = false
        // Reads Unicode scalars, not Characters: a combining mark must not merge with a '.', '`'
        // or '\\' into one Character and so hide it.
        var scalars = text.unicodeScalars.makeIterator()
        func finishSegment() throws {
            guard !current.isEmpty else { throw fail("field names must not be empty") }
            guard wasQuoted || FieldPath.isSimpleName(current) else {
                throw fail("'\(current)' must be quoted with back-quotes (`) because it is not a simple name")
            }
            segments.append(current)
            current = ""
            wasQuoted = false
        }
        while let scalar = scalars.next() {
            if quoted {
                switch scalar {
                case "`":
                    quoted = false
                case "\\":
                    guard let escaped = scalars.next(), escaped == "`" || escaped == "\\" else {
                        throw fail("only \\` and \\\\ may be escaped")
                    }
                    current.unicodeScalars.append(escaped)
                default:
                    current.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ".":
                try finishSegment()
            case "`":
                guard current.isEmpty, !wasQuoted else { throw fail("a back-quote must enclose a whole name") }
                quoted = true
                wasQuoted = true
            default:
                guard !wasQuoted else { throw fail("a back-quote must enclose a whole name") }
                current.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { throw fail("unterminated back-quote") }
        try finishSegment()
        return FieldPath(validatedSegments: segments)
    }
}

extension FieldPath {
    /// A one-name path, for naming a field in messages and validation (the name may be anything).
    package init(uncheckedSegment name: String) {
        self.init(validatedSegments: [name])
    }

    /// A path of names taken as they are, for naming fields found in stored or submitted maps.
    package init(uncheckedSegments names: [String]) {
        self.init(validatedSegments: names)
    }
}
