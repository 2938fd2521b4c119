/// An error reported by LevelDB or by the wrapper around it.
///
/// The message is LevelDB's own text where LevelDB produced one, so that
/// `"Corruption: ..."` or `"IO error: ..."` reach the user unchanged.
///
/// ```swift
/// do { _ = try Database(path: folder) }
/// catch let error as LevelDBError where error.code == .databaseInUse { print(error.message) }
/// ```
public struct LevelDBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for matching.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case ioError, corruption, invalidArgument, notSupported, databaseInUse, closed, busy, other
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// An I/O failure such as a missing folder or a full disk.
        public static let ioError = Code(.ioError)
        /// The on-disk data failed a checksum or structure check.
        public static let corruption = Code(.corruption)
        /// LevelDB refused an argument or option (for example, a missing database without `createIfMissing`).
        public static let invalidArgument = Code(.invalidArgument)
        /// The operation is not supported by this LevelDB build.
        public static let notSupported = Code(.notSupported)
        /// Another process (or another handle in this process) holds the folder's lock.
        public static let databaseInUse = Code(.databaseInUse)
        /// The database was closed before the call.
        public static let closed = Code(.closed)
        /// The database cannot be closed while iterators or snapshots are still open.
        public static let busy = Code(.busy)
        /// Any other failure; the message says what.
        public static let other = Code(.other)

        public var description: String { "\(kind)" }
    }

    /// The kind of failure.
    public let code: Code
    /// A human-readable message, usually LevelDB's own.
    public let message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// Classifies a message returned through LevelDB's `errptr` out-parameter.
    static func fromLevelDB(_ message: String, path: String?) -> LevelDBError {
        if message.contains("/LOCK:") || message.contains("lock ") && message.contains("LOCK") {
            let folder = path ?? "the data folder"
            return LevelDBError(
                code: .databaseInUse,
                message: "data folder '\(folder)' is in use by another process (LevelDB: \(message))"
            )
        }
        let code: Code
        if message.hasPrefix("Corruption:") {
            code = .corruption
        } else if message.hasPrefix("IO error:") {
            code = .ioError
        } else if message.hasPrefix("Invalid argument:") {
            code = .invalidArgument
        } else if message.hasPrefix("Not implemented:") {
            code = .notSupported
        } else {
            code = .other
        }
        return LevelDBError(code: code, message: message)
    }
}
