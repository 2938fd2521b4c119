import DocumentModel
public import DocumentStore
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOCore
import NIOPosix
import SecurityRules

/// The Firestore emulator's server: Firestore's gRPC API (`google.firestore.v1.Firestore`), its
/// REST API and the emulator's admin endpoints, all on one port, over a `DocumentStore`.
///
/// Prefer `withEmulatorServer(store:configuration:_:)`, which scopes the server's lifetime.
/// To run it directly, call `run()` in a task and `beginGracefulShutdown()` to stop it:
///
/// ```swift
/// let server = EmulatorServer(store: store, configuration: EmulatorServerConfiguration(port: 8080))
/// async let serving: Void = server.run()
/// print(try await server.listeningAddress)   // 127.0.0.1:8080
/// server.beginGracefulShutdown()             // in-flight requests finish first
/// try await serving
/// ```
///
/// The server does not own the store: close it after `run()` has returned.
public final class EmulatorServer: Sendable {
    /// The store the server serves.
    public let store: DocumentStore
    /// How the server listens.
    public let configuration: EmulatorServerConfiguration
    /// Every project's security rules: `configuration.rules` once `run()` starts, replaced with
    /// `setServerRules(_:)` (as `hearth start` does when the rules file changes) or per project
    /// through `PUT /emulator/v1/projects/{p}:securityRules`.
    package let rules: ProjectRules
    /// Why `configuration.rules` did not load, if it did not: the server then never listens.
    private let rulesFailure: RulesCompilationError?
    /// The stream limit swift-nio-http2 is given: far above any announced limit, because it
    /// closes the whole connection (PROTOCOL_ERROR) when a client passes it; the announced
    /// limit (`EmulatorServerConfiguration.maxConcurrentStreams`) is enforced per stream by
    /// the `ClientFrameRewriter`, and written into the SETTINGS the clients read by the
    /// `ProtocolGate`.
    static let transportStreamLimit = 1 << 30
    /// The console's log of the last requests.
    let requestLog: RequestLog
    /// The console's open Server-Sent Events streams, ended when the server stops.
    let eventStreams: OpenEventStreams
    /// The Listen streams, served below grpc-swift; `run()` returns once every one has ended.
    private let listenStreams: ListenStreams
    private let transport: HTTP2ServerTransport.Custom<OnePortListenerFactory>
    private let grpcServer: GRPCServer<HTTP2ServerTransport.Custom<OnePortListenerFactory>>

    /// A server for `store`; it listens once `run()` is called.
    public init(store: DocumentStore, configuration: EmulatorServerConfiguration = EmulatorServerConfiguration()) {
        self.store = store
        self.configuration = configuration
        let api = FirestoreAPI(store: store, seeding: configuration.seeding)
        let rules = ProjectRules(store: store)
        self.rules = rules
        do {
            try rules.setServerRules(configuration.rules)
            rulesFailure = nil
        } catch {
            rulesFailure = error
        }
        let requestLog = RequestLog()
        self.requestLog = requestLog
        let eventStreams = OpenEventStreams()
        self.eventStreams = eventStreams
        let runner = RequestRunner(
            log: configuration.onRequest, requests: requestLog, rules: rules, readers: store.readerExecutor,
            writer: store.writerExecutor)
        let listenStreams = ListenStreams(api: api, runner: runner)
        self.listenStreams = listenStreams
        let console = ConsoleAPI(api: api, rules: rules, log: requestLog, defaultProject: configuration.defaultProject)
        let gateway = RESTGateway(api: api, runner: runner, rulesAdmin: RulesAdmin(rules: rules), console: console)
        let sizeLimit = RequestSizeLimit(bytes: configuration.maxRequestBytes)
        let streamLimit = configuration.maxConcurrentStreams
        let factory = OnePortListenerFactory(
            host: configuration.host, port: configuration.port,
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, announcedStreamLimit: streamLimit,
            makeRESTHandler: { RESTChannelHandler(gateway: gateway, sizeLimit: sizeLimit, eventStreams: eventStreams) })
        var transportConfig = HTTP2ServerTransport.Custom<OnePortListenerFactory>.Config.defaults
        transportConfig.rpc.maxRequestPayloadSize = sizeLimit.transportLimit
        // The SDKs multiplex all of an app's listeners and calls on one connection: the
        // configured limit is announced and enforced per stream (see `transportStreamLimit`).
        transportConfig.http2.maxConcurrentStreams = EmulatorServer.transportStreamLimit
        // Clients may ping at any rate, with or without calls: grpc-core (the official Python,
        // Node and C++ clients) sends bandwidth-probe pings as data arrives on busy connections,
        // and grpc-swift's policy would count them as strikes and close the connection with
        // GOAWAY ENHANCE_YOUR_CALM (it did, to 7,682 of 10,000 listeners on 10 connections).
        // Answering a ping is cheap on loopback.
        transportConfig.connection.keepalive.clientBehavior = .init(
            minPingIntervalWithoutCalls: .zero, allowWithoutCalls: true)
        // Each stream registers with its connection's `ClientFrameRewriter`, which refuses it
        // over the stream limit and half-closes it when the client resets it; a call's deadline
        // is kept by `StreamDeadline` rather than grpc-swift (whose sleeping timer task leaks on
        // this toolchain); malformed message framing gets a status rather than a bare stream
        // reset; Listen calls are served by a `ListenStreamHandler`, without grpc-swift's tasks.
        transportConfig.channelDebuggingCallbacks.onAcceptHTTP2Stream = { stream in
            stream.eventLoop.makeCompletedFuture {
                let rewriter = try stream.parent.map { try $0.pipeline.syncOperations.handler(type: ClientFrameRewriter.self) }
                if let rewriter, !rewriter.register(stream, limit: streamLimit) {
                    try stream.pipeline.syncOperations.addHandler(StreamRefuser(), position: .first)
                } else {
                    try stream.pipeline.syncOperations.addHandlers(
                        [StreamDeadline(), GRPCFramingGuard(sizeLimit: sizeLimit), listenStreams.makeHandler()],
                        position: .first)
                }
            }
        }
        transport = HTTP2ServerTransport.Custom(listenerFactory: factory, config: transportConfig)
        grpcServer = GRPCServer(
            transport: transport, services: [FirestoreService(api: api, runner: runner, sizeLimit: sizeLimit)])
    }

    /// Listens and serves until `beginGracefulShutdown()` is called and every open request
    /// and connection has finished.
    ///
    /// - Throws: `RulesCompilationError` when `configuration.rules` has errors (the server does
    ///   not listen then); `FirestoreError` with `.unavailable` when the port is in use or the
    ///   address cannot be bound, naming the address.
    public func run() async throws {
        if let rulesFailure { throw rulesFailure }
        do {
            try await withTaskCancellationHandler {
                try await grpcServer.serve()
            } onCancel: { [eventStreams] in
                eventStreams.cancelAll()
            }
        } catch {
            await eventStreams.closeAll()
            await listenStreams.waitUntilAllEnded()
            throw EmulatorServer.startupError(error, host: configuration.host, port: configuration.port)
        }
        // However the server stops, the console's event streams end with it, and before `run()`
        // returns: the store may be closed next, and a stream reading it would keep it open.
        // The Listen streams closed with their connections; their sessions stop by themselves.
        await eventStreams.closeAll()
        await listenStreams.waitUntilAllEnded()
    }

    /// The address the server listens on, once it does (with the actual port when the
    /// configuration asked for port 0).
    ///
    /// - Throws: `RulesCompilationError` when `configuration.rules` has errors; `FirestoreError`
    ///   with `.unavailable` if the server stopped or could not listen.
    public var listeningAddress: ServerAddress {
        get async throws {
            if let rulesFailure { throw rulesFailure }
            let address = await transport.listeningAddress
            if let ipv4 = address?.ipv4 { return ServerAddress(host: ipv4.host, port: ipv4.port) }
            if let ipv6 = address?.ipv6 { return ServerAddress(host: ipv6.host, port: ipv6.port) }
            throw FirestoreError(.unavailable, "The emulator server is not listening")
        }
    }

    /// Stops accepting connections, lets open requests finish, then makes `run()` return. The
    /// console's event streams, which never finish by themselves, end at once.
    public func beginGracefulShutdown() {
        eventStreams.cancelAll()
        grpcServer.beginGracefulShutdown()
    }

    /// A clear error for a failure to start: the address in use, or not bindable.
    private static func startupError(_ error: any Error, host: String, port: Int) -> any Error {
        var cause: (any Error)? = error
        while let current = cause {
            if let ioError = current as? IOError {
                if ioError.errnoCode == EADDRINUSE {
                    return FirestoreError(
                        .unavailable, "Port \(port) on \(host) is in use by another program: stop it or choose another port")
                }
                return FirestoreError(.unavailable, "Cannot listen on \(host):\(port): \(ioError)")
            }
            cause = (current as? RuntimeError)?.cause
        }
        return error
    }
}
