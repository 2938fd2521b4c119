import DocumentModel
import DocumentStore
import EmulatorServer
import FirestoreExport
import FirestoreProto
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Synchronization

/// A real emulator server on a free loopback port over a fresh store in a temporary folder,
/// with a gRPC client and a plain HTTP client connected to it.
struct TestServer: Sendable {
    let server: EmulatorServer
    let address: ServerAddress
    let grpc: Google_Firestore_V1_Firestore.Client<HTTP2ClientTransport.Posix>
    /// The gRPC client under `grpc`, for calls with hand-made bytes.
    let rawGRPC: GRPCClient<HTTP2ClientTransport.Posix>
    let log: LogRecorder

    /// `projects/demo-test/databases/(default)`.
    static let database = "projects/demo-test/databases/(default)"

    /// The full name of `path` in the test database.
    static func name(_ path: String, database: String = TestServer.database) -> String {
        "\(database)/documents/\(path)"
    }

    /// Admin metadata, as the official clients send it to an emulator.
    static let owner: Metadata = ["authorization": "Bearer owner"]

    /// An HTTP/1.1 client for this server.
    var http: RawHTTPClient { RawHTTPClient(address: address) }

    /// Runs `body` against a new server (with `rules` for every project, if given, every
    /// project seeded on first use from the export at `seed`, if given, its stream limit per
    /// connection, and the store on `clock`, if given), then stops the server and deletes its data.
    static func run<Result: Sendable>(
        rules: RulesFile? = nil, seed: String? = nil, maxConcurrentStreams: Int = 10_000,
        clock: (any WallClock)? = nil, _ body: (TestServer) async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var storeConfiguration = StoreConfiguration()
        storeConfiguration.garbageCollectionIntervalSeconds = nil
        if let clock { storeConfiguration.clock = clock }
        let store = try DocumentStore(path: folder.path, configuration: storeConfiguration)
        defer { try? store.close() }
        let log = LogRecorder()
        var configuration = EmulatorServerConfiguration(port: 0, rules: rules, onRequest: log.record)
        configuration.maxConcurrentStreams = maxConcurrentStreams
        configuration.seeding = try seed.map { ProjectSeeding(export: try ExportReader(path: $0), store: store) }
        return try await withEmulatorServer(store: store, configuration: configuration) { server in
            let address = try await server.listeningAddress
            let transport = try HTTP2ClientTransport.Posix(
                target: .ipv4(address: address.host, port: address.port), transportSecurity: .plaintext)
            return try await withGRPCClient(transport: transport) { client in
                try await body(TestServer(
                    server: server, address: address, grpc: Google_Firestore_V1_Firestore.Client(wrapping: client),
                    rawGRPC: client, log: log))
            }
        }
    }
}

/// Collects the server's request log entries.
final class LogRecorder: Sendable {
    private let entries = Mutex<[RequestLogEntry]>([])

    /// Every entry so far.
    var all: [RequestLogEntry] { entries.withLock { $0 } }

    @Sendable func record(_ entry: RequestLogEntry) {
        entries.withLock { $0.append(entry) }
    }
}
