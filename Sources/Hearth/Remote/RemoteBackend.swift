import DocumentModel
import FirestoreProto
import FirestoreWire
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Synchronization

/// A Firestore emulator (Hearth's or Google's) over gRPC, in plaintext, as the official
/// clients talk to one: the identity travels in the `Authorization` header of each call.
final class RemoteBackend: Backend {
    let database: DatabaseID
    private let client: GRPCClient<HTTP2ClientTransport.Posix>
    private let firestore: Google_Firestore_V1_Firestore.Client<HTTP2ClientTransport.Posix>
    private let connections: Task<Void, Never>
    /// Set by `shutdown()`: listeners then stop instead of listening again.
    private let isShutDown = Atomic<Bool>(false)

    /// How long the transport waits between attempts to connect: from 100 ms, doubling, at most
    /// 2 s, as the listeners and the write queue do. grpc-swift's default grows to 2 minutes, so
    /// a client could take that long to see an emulator that came back (an offline test waited
    /// more than 30 s under AddressSanitizer).
    static let connectionBackoff = HTTP2ClientTransport.Config.Backoff(
        initial: RemoteListener.initialBackoff, max: RemoteListener.maximumBackoff, multiplier: 2, jitter: 0.2)

    init(host: String, port: Int, database: DatabaseID) throws {
        self.database = database
        let target: any ResolvableTarget =
            if host.contains(":") {
                .ipv6(address: host, port: port)
            } else if host.split(separator: ".").count == 4, host.allSatisfy({ $0.isNumber || $0 == "." }) {
                .ipv4(address: host, port: port)
            } else {
                .dns(host: host, port: port)
            }
        do {
            let transport = try HTTP2ClientTransport.Posix(
                target: target, transportSecurity: .plaintext,
                config: .defaults { $0.backoff = RemoteBackend.connectionBackoff })
            client = GRPCClient(transport: transport)
        } catch {
            throw FirestoreError(.unavailable, "Cannot reach the emulator at \(host):\(port): \(error)")
        }
        firestore = Google_Firestore_V1_Firestore.Client(wrapping: client)
        connections = Task { [client] in try? await client.runConnections() }
    }

    /// The call metadata for `identity`.
    private func metadata(_ identity: Identity) throws -> Metadata {
        var metadata = Metadata()
        metadata.addString(database.resourceName, forKey: "google-cloud-resource-prefix")
        if let header = try AuthorizationToken.header(for: identity, project: database.project) {
            metadata.addString(header, forKey: "authorization")
        }
        return metadata
    }

    func lookup(_ names: [DocumentName], transaction: TransactionID?, as identity: Identity) async throws
        -> (readTime: Timestamp, documents: [Document?])
    {
        var request = Google_Firestore_V1_BatchGetDocumentsRequest()
        request.database = database.resourceName
        request.documents = names.map(\.resourceName)
        if let transaction { request.transaction = transaction.proto }
        let metadata = try metadata(identity)
        let (readTime, found) = try await RemoteCall.run { [firestore] in
            try await firestore.batchGetDocuments(request: ClientRequest(message: request, metadata: metadata)) { response in
                var found: [String: Document?] = [:]
                var readTime = Timestamp.min
                for try await message in response.messages {
                    if message.hasReadTime { readTime = max(readTime, try Timestamp(proto: message.readTime)) }
                    switch message.result {
                    case .found(let document): found[document.name] = .some(try Document(proto: document))
                    case .missing(let name): found[name] = .some(nil)
                    case nil: break
                    }
                }
                return (readTime, found)
            }
        }
        return (readTime, names.map { found[$0.resourceName] ?? nil })
    }

    func runQuery(_ query: DocumentModel.Query, transaction: TransactionID?, as identity: Identity) async throws
        -> (readTime: Timestamp, documents: [Document])
    {
        var request = Google_Firestore_V1_RunQueryRequest()
        request.parent = query.protoParent
        request.structuredQuery = query.structured.proto
        if let transaction { request.transaction = transaction.proto }
        let metadata = try metadata(identity)
        return try await RemoteCall.run { [firestore] in
            try await firestore.runQuery(request: ClientRequest(message: request, metadata: metadata)) { response in
                var documents: [Document] = []
                var readTime = Timestamp.min
                for try await message in response.messages {
                    if message.hasReadTime { readTime = max(readTime, try Timestamp(proto: message.readTime)) }
                    if message.hasDocument { documents.append(try Document(proto: message.document)) }
                }
                return (readTime, documents)
            }
        }
    }

    func runAggregation(_ query: AggregationQuery, as identity: Identity) async throws -> MapValue {
        var request = Google_Firestore_V1_RunAggregationQueryRequest()
        request.parent = query.query.protoParent
        request.structuredAggregationQuery = query.proto
        let metadata = try metadata(identity)
        return try await RemoteCall.run { [firestore] in
            try await firestore.runAggregationQuery(request: ClientRequest(message: request, metadata: metadata)) {
                response in
                var fields = MapValue()
                for try await message in response.messages where message.hasResult {
                    fields = try MapValue(proto: message.result.aggregateFields)
                }
                return fields
            }
        }
    }

    func commit(_ writes: [Write], transaction: TransactionID?, as identity: Identity) async throws -> CommitReport {
        var request = Google_Firestore_V1_CommitRequest()
        request.database = database.resourceName
        request.writes = writes.map(\.proto)
        if let transaction { request.transaction = transaction.proto }
        let metadata = try metadata(identity)
        let response = try await RemoteCall.run { [firestore] in
            try await firestore.commit(request: ClientRequest(message: request, metadata: metadata))
        }
        return CommitReport(
            commitTime: try Timestamp(proto: response.commitTime),
            transformResults: try response.writeResults.map { try $0.transformResults.map(Value.init(proto:)) })
    }

    func beginTransaction(retrying: TransactionID?, as identity: Identity) async throws -> TransactionID {
        var request = Google_Firestore_V1_BeginTransactionRequest()
        request.database = database.resourceName
        var readWrite = Google_Firestore_V1_TransactionOptions.ReadWrite()
        if let retrying { readWrite.retryTransaction = retrying.proto }
        request.options.readWrite = readWrite
        let metadata = try metadata(identity)
        let response = try await RemoteCall.run { [firestore] in
            try await firestore.beginTransaction(request: ClientRequest(message: request, metadata: metadata))
        }
        return try TransactionID(proto: response.transaction)
    }

    func rollback(_ transaction: TransactionID, as identity: Identity) async {
        var request = Google_Firestore_V1_RollbackRequest()
        request.database = database.resourceName
        request.transaction = transaction.proto
        guard let metadata = try? metadata(identity) else { return }
        _ = try? await firestore.rollback(request: ClientRequest(message: request, metadata: metadata))
    }

    func watch(_ target: ListenTarget, resuming resume: WatchResume?, as identity: Identity) -> AsyncStream<WatchEvent> {
        let (stream, continuation) = AsyncStream<WatchEvent>.makeStream(bufferingPolicy: WatchEvent.buffering)
        let metadata: Metadata
        do {
            metadata = try self.metadata(identity)
        } catch {
            continuation.yield(.failed(FirestoreError.wrapping(error)))
            continuation.finish()
            return stream
        }
        let listener = RemoteListener(
            firestore: firestore, database: database, target: target, resume: resume, metadata: metadata,
            isShutDown: { [weak self] in self?.isShutDown.load(ordering: .relaxed) ?? true })
        let task = Task { await listener.run(into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    func shutdown() async {
        isShutDown.store(true, ordering: .relaxed)
        client.beginGracefulShutdown()
        await connections.value
    }
}

/// Runs a call, reporting gRPC failures as `FirestoreError`s with the same code and message.
enum RemoteCall {
    static func run<Result: Sendable>(_ call: () async throws -> Result) async throws -> Result {
        do {
            return try await call()
        } catch let error as RPCError {
            let code = FirestoreError.Code(rawValue: error.code.rawValue) ?? .unknown
            throw FirestoreError(code, error.message)
        }
    }
}
