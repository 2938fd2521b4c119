/// Why an export could not be read or written, naming the file and, inside it, the byte offset.
///
/// Reading stops at the first problem, before anything is imported, so the message is the whole
/// story: `output-0: byte 32768: bad checksum in the record header`.
///
/// ```swift
/// catch let error as ExportError where error.code == .badChecksum { ... }
/// ```
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String {
            case notAnExport = "not an export"
            case missingMetadata = "missing metadata"
            case truncated
            case badChecksum = "bad checksum"
            case unknownTag = "unknown tag"
            case malformed
            case notEmpty = "database not empty"
            case io = "i/o"
        }

        private let kind: Kind

        /// A path that is neither an export folder, a firebase-tools export nor a metadata file.
        public static let notAnExport = Code(kind: .notAnExport)
        /// A metadata file the export names (or must have) is absent or unreadable.
        public static let missingMetadata = Code(kind: .missingMetadata)
        /// A file ends inside a record.
        public static let truncated = Code(kind: .truncated)
        /// A record's CRC32C does not match its bytes.
        public static let badChecksum = Code(kind: .badChecksum)
        /// A field number, wire type, record type or meaning this format does not have.
        public static let unknownTag = Code(kind: .unknownTag)
        /// Bytes that do not decode to a document: a bad varint, invalid UTF-8, an invalid name.
        public static let malformed = Code(kind: .malformed)
        /// An import without `merge` into a database that has documents.
        public static let notEmpty = Code(kind: .notEmpty)
        /// A file could not be read, written or renamed.
        public static let io = Code(kind: .io)

        public var description: String { kind.rawValue }
    }

    /// What kind of problem it is.
    public let code: Code
    /// The file it is in (as given), if it concerns one.
    public let file: String?
    /// The byte offset in `file` where the problem is, if known.
    public let offset: Int?
    /// What is wrong.
    public let message: String

    public init(_ code: Code, _ message: String, file: String? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.offset = offset
    }

    /// The same error placed in `file` at `offset`, for an error found in bytes that came from
    /// there (an entity's own offset, if any, stays in the message).
    func located(in file: String, at offset: Int) -> ExportError {
        let inner = self.offset.map { "entity byte \($0): " } ?? ""
        return ExportError(code, "\(inner)\(message)", file: file, offset: offset)
    }

    public var description: String {
        var text = ""
        if let file { text += "\(file): " }
        if let offset { text += "byte \(offset): " }
        return text + message
    }
}
