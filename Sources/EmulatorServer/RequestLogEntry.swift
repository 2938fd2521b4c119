public import DocumentModel

/// What the server logs for one request: one line with the protocol, method, resource path,
/// caller, rules outcome and status.
///
/// ```text
/// gRPC Commit projects/demo/databases/(default) owner admin OK 0.41 ms
/// HTTP GET /v1/projects/demo/databases/(default)/documents/users/alice alice allowed NOT_FOUND 0.22 ms
/// gRPC RunQuery projects/demo/databases/(default)/documents bob denied PERMISSION_DENIED 0.30 ms
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
    /// The documents a request on a whole database named, as it spelled them: a commit's,
    /// batch write's or `Write` stream's writes, a batch get's documents (the first 20); empty
    /// for other requests.
    public var documents: [String] = []
    /// How many documents the request named in all (`documents` keeps the first 20).
    public var documentCount = 0
    /// `owner`, the user's uid, or `unauthenticated` (see `RequestContext.callerDescription`);
    /// `-` when the authorization header itself was invalid.
    public var caller: String
    /// `nil` for success, else the failure's code and message.
    public var failure: FirestoreError?
    /// How long the request took, in seconds.
    public var duration: Double
    /// What security rules made of the request.
    public var rules: RulesOutcome

    /// What security rules made of a request.
    public enum RulesOutcome: String, Sendable {
        /// The owner: rules do not apply.
        case admin
        /// Rules allowed it (or the project has open rules).
        case allowed
        /// Rules denied it: PERMISSION_DENIED.
        case denied
        /// The request failed before or apart from a rules decision (a bad header, a bad name...).
        case undecided = "-"

        /// The outcome of a request by the admin or not (`nil`: the header was invalid) that
        /// ended with `failure` (`nil`: success). Rules are judged after validation and before
        /// preconditions, so NOT_FOUND and ALREADY_EXISTS come after an allowing decision.
        init(isAdmin: Bool?, failure: FirestoreError.Code?) {
            switch (isAdmin, failure) {
            case (true, _): self = .admin
            case (_, .permissionDenied?): self = .denied
            case (false, nil), (false, .notFound?), (false, .alreadyExists?): self = .allowed
            default: self = .undecided
            }
        }
    }

    init(
        transport: Transport, method: String, path: String, caller: String, failure: FirestoreError?,
        duration: Double, rules: RulesOutcome = .undecided
    ) {
        self.transport = transport
        self.method = method
        self.path = path
        self.caller = caller
        self.failure = failure
        self.duration = duration
        self.rules = rules
    }

    /// The log line, without the failure's message.
    public var description: String {
        let milliseconds = (duration * 100_000).rounded() / 100
        return "\(transport.rawValue) \(method) \(path) \(caller) \(rules.rawValue) \(failure?.code.name ?? "OK") \(milliseconds) ms"
    }
}
