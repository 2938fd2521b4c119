package import FirestoreExport

/// How an `EmulatorServer` listens and reports requests.
///
/// ```swift
/// var configuration = EmulatorServerConfiguration(host: "127.0.0.1", port: 0)  // 0: any free port
/// configuration.onRequest = { entry in print(entry) }
/// configuration.rules = RulesFile(source: rulesText)   // every project's security rules
/// ```
public struct EmulatorServerConfiguration: Sendable {
    /// The address to listen on. Only loopback (`127.0.0.1`, the default) keeps the emulator,
    /// which has no real authentication, out of reach of other machines.
    public var host: String
    /// The one port for gRPC, REST and the admin endpoints; `0` picks a free port (see
    /// `EmulatorServer.listeningAddress`).
    public var port: Int
    /// The largest request accepted, in bytes of the encoded message or HTTP body: Firestore's
    /// 10 MiB. Larger requests fail with INVALID_ARGUMENT, as in production Firestore.
    public var maxRequestBytes: Int
    /// The streams one HTTP/2 connection may have open at once, announced to clients as
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` (10,000: the SDKs multiplex all of an app's listeners
    /// and calls on one connection). A stream over the limit is refused alone, with
    /// `RST_STREAM` REFUSED_STREAM, which clients retry; the connection goes on.
    public var maxConcurrentStreams = 10_000
    /// Called once per request, after it finished, from any thread.
    public var onRequest: @Sendable (RequestLogEntry) -> Void
    /// The security rules of every project, as Google's emulator applies its `--rules` file;
    /// `nil` leaves every project open (every request allowed), as the emulator does without
    /// one. `PUT /emulator/v1/projects/{p}:securityRules` replaces one project's.
    public var rules: RulesFile?
    /// The project the console's overview always lists, with or without data (`hearth start`'s
    /// project); `nil` lists only projects with data or rules.
    public var defaultProject: String?
    /// An export that seeds every project on first use (see `ProjectSeeding`), if any.
    package var seeding: ProjectSeeding?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxRequestBytes: Int = 10 * 1024 * 1024,
        rules: RulesFile? = nil, onRequest: @escaping @Sendable (RequestLogEntry) -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.maxRequestBytes = maxRequestBytes
        self.rules = rules
        self.onRequest = onRequest
    }
}
