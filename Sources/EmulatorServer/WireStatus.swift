import DocumentModel
import GRPCCore
import NIOHTTP1
import SwiftProtobuf

/// A failure as the server puts it on the wire: one of Firestore's canonical codes and a message.
///
/// This is the one place where errors meet wire statuses. Domain code throws `FirestoreError`;
/// the gRPC service and the REST gateway turn whatever a request threw into a `WireStatus`
/// (`WireStatus(error)`) and render it as a gRPC status or as an HTTP status with Google's
/// JSON error body.
struct WireStatus: Error, Sendable, Equatable {
    /// The canonical code.
    var code: FirestoreError.Code
    /// The message the client sees.
    var message: String

    init(_ code: FirestoreError.Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The status of any error a request threw: its own status if it is `WireStatusConvertible`,
    /// `INTERNAL` naming the error otherwise.
    init(_ error: any Error) {
        if let convertible = error as? any WireStatusConvertible {
            self = convertible.wireStatus
        } else {
            self.init(.internal, "Internal error: \(error)")
        }
    }

    /// The gRPC error that carries this status.
    var rpcError: RPCError {
        RPCError(code: RPCError.Code(code), message: message)
    }

    /// The HTTP status Google's REST API uses for the code.
    var httpStatus: HTTPResponseStatus {
        HTTPResponseStatus(statusCode: WireStatus.httpStatusCodes[code] ?? 500)
    }

    /// Google's REST error body: `{"error": {"code": 404, "message": "...", "status": "NOT_FOUND"}}`.
    var restErrorBody: JSONValue {
        .object([
            JSONValue.Member(
                "error",
                .object([
                    JSONValue.Member("code", JSONValue(Int64(httpStatus.code))),
                    JSONValue.Member("message", .string(message)),
                    JSONValue.Member("status", .string(code.name)),
                ]))
        ])
    }

    /// Google's mapping of canonical codes to HTTP statuses (google.rpc.Code).
    private static let httpStatusCodes: [FirestoreError.Code: Int] = [
        .cancelled: 499, .unknown: 500, .invalidArgument: 400, .deadlineExceeded: 504, .notFound: 404,
        .alreadyExists: 409, .permissionDenied: 403, .resourceExhausted: 429, .failedPrecondition: 400,
        .aborted: 409, .outOfRange: 400, .unimplemented: 501, .internal: 500, .unavailable: 503,
        .dataLoss: 500, .unauthenticated: 401,
    ]
}

/// An error that knows the wire status it stands for.
protocol WireStatusConvertible: Error {
    /// The status a request that threw this error ends with.
    var wireStatus: WireStatus { get }
}

extension WireStatus: WireStatusConvertible {
    var wireStatus: WireStatus { self }
}

extension FirestoreError: WireStatusConvertible {
    var wireStatus: WireStatus { WireStatus(code, message) }
}

extension RPCError: WireStatusConvertible {
    var wireStatus: WireStatus {
        WireStatus(FirestoreError.Code(rawValue: code.rawValue) ?? .unknown, message)
    }
}

extension BinaryDecodingError: WireStatusConvertible {
    var wireStatus: WireStatus { WireStatus(.invalidArgument, "Invalid request: malformed protobuf (\(self))") }
}

extension JSONDecodingError: WireStatusConvertible {
    var wireStatus: WireStatus { WireStatus(.invalidArgument, "Invalid JSON payload received. \(self)") }
}

extension RPCError.Code {
    /// The gRPC code of a Firestore code (both are the canonical codes).
    init(_ code: FirestoreError.Code) {
        self = Status.Code(rawValue: code.rawValue).flatMap { RPCError.Code($0) } ?? .unknown
    }
}
