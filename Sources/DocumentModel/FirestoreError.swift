/// An error with one of Firestore's canonical status codes and a message that names the problem.
///
/// Every layer of Hearth reports failures as a `FirestoreError`; only the server maps the code
/// to a gRPC or HTTP status.
///
/// ```swift
/// catch let error as FirestoreError where error.code == .notFound { ... }
/// ```
public struct FirestoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Firestore's (and gRPC's) canonical status codes.
    public enum Code: Int, Sendable, CaseIterable, CustomStringConvertible {
        case cancelled = 1
        case unknown = 2
        case invalidArgument = 3
        case deadlineExceeded = 4
        case notFound = 5
        case alreadyExists = 6
        case permissionDenied = 7
        case resourceExhausted = 8
        case failedPrecondition = 9
        case aborted = 10
        case outOfRange = 11
        case unimplemented = 12
        case `internal` = 13
        case unavailable = 14
        case dataLoss = 15
        case unauthenticated = 16

        /// The code's canonical name, as gRPC prints it (`INVALID_ARGUMENT`).
        public var name: String {
            switch self {
            case .cancelled: "CANCELLED"
            case .unknown: "UNKNOWN"
            case .invalidArgument: "INVALID_ARGUMENT"
            case .deadlineExceeded: "DEADLINE_EXCEEDED"
            case .notFound: "NOT_FOUND"
            case .alreadyExists: "ALREADY_EXISTS"
            case .permissionDenied: "PERMISSION_DENIED"
            case .resourceExhausted: "RESOURCE_EXHAUSTED"
            case .failedPrecondition: "FAILED_PRECONDITION"
            case .aborted: "ABORTED"
            case .outOfRange: "OUT_OF_RANGE"
            case .unimplemented: "UNIMPLEMENTED"
            case .internal: "INTERNAL"
            case .unavailable: "UNAVAILABLE"
            case .dataLoss: "DATA_LOSS"
            case .unauthenticated: "UNAUTHENTICATED"
            }
        }

        public var description: String { name }
    }

    /// The status code.
    public let code: Code
    /// What went wrong, naming the offending path or field.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.name): \(message)" }

    /// A shorthand for `.invalidArgument` errors, the most common kind.
    public static func invalidArgument(_ message: String) -> FirestoreError {
        FirestoreError(.invalidArgument, message)
    }
}
