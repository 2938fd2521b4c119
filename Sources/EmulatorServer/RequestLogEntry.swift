import DocumentModel

/// What the server logs for one request: one line with the protocol, method, resource path,
/// caller and outcome.
///
/// ```text
/// gRPC Commit projects/demo/databases/(default) owner OK 0.41 ms
/// HTTP GET /v1/projects/demo/databases/(default)/documents/users/alice alice NOT_FOUND 0.22 ms
/// ```
public struct RequestLogEntry: Sendable, CustomStringConvertible {
    /// The wire protocol of a request.
    public enum Transport: String, Sendable {
        case grpc = "gRPC"
        case http = "HTTP"
    }

    /// gRPC or HTTP (REST and the admin endpoints).
    public var transport: Transport
    /// The RPC (`Commit`) or the HTTP method (`GET`).
    public var method: String
    /// The resource: the request's document or database name for gRPC, the URL path for HTTP.
    public var path: String
    /// `owner`, the user's uid, or `unauthenticated` (see `RequestContext.callerDescription`);
    /// `-` when the authorization header itself was invalid.
    public var caller: String
    /// `nil` for success, else the failure's code and message.
    public var failure: FirestoreError?
    /// How long the request took, in seconds.
    public var duration: Double

    public init(
        transport: Transport, method: String, path: String, caller: String, failure: FirestoreError?,
        duration: Double
    ) {
        self.transport = transport
        self.method = method
        self.path = path
        self.caller = caller
        self.failure = failure
        self.duration = duration
    }

    /// The log line, without the failure's message.
    public var description: String {
        let milliseconds = (duration * 100_000).rounded() / 100
        return "\(transport.rawValue) \(method) \(path) \(caller) \(failure?.code.name ?? "OK") \(milliseconds) ms"
    }
}
