import DocumentModel
import FirestoreProto
import FirestoreWire
import Foundation
import GRPCCore
import SwiftProtobuf

@testable import EmulatorServer

/// One bidirectional stream driven step by step by a test: `send` requests, read responses
/// one at a time or up to a condition.
struct StreamCall<Request: Sendable, Response: Sendable> {
    let requests: AsyncStream<Request>.Continuation
    var responses: RPCAsyncSequence<Response, any Error>.AsyncIterator

    /// Sends a request on the stream.
    func send(_ request: Request) {
        requests.yield(request)
    }

    /// Closes the client's side of the stream.
    func finish() {
        requests.finish()
    }

    /// The next response, or `nil` when the server ended the stream.
    mutating func next() async throws -> Response? {
        try await responses.next()
    }

    /// The responses up to and including the first that satisfies `last`.
    mutating func responses(through last: (Response) -> Bool) async throws -> [Response] {
        var collected: [Response] = []
        while let response = try await responses.next() {
            collected.append(response)
            if last(response) { return collected }
        }
        throw StreamEnded(received: collected.map { "\($0)" })
    }
}

/// The server ended a stream before the response a test waited for.
struct StreamEnded: Error {
    let received: [String]
}

extension TestServer {
    /// Runs `body` on a new `Listen` stream, then closes it.
    func listen<Result: Sendable>(
        metadata: Metadata = TestServer.owner,
        _ body: @Sendable @escaping (
            inout StreamCall<Google_Firestore_V1_ListenRequest, Google_Firestore_V1_ListenResponse>
        ) async throws -> Result
    ) async throws -> Result {
        try await bidirectional(metadata: metadata, body) { try await grpc.listen(request: $0, onResponse: $1) }
    }

    /// Runs `body` on a new `Write` stream, then closes it.
    func writeStream<Result: Sendable>(
        metadata: Metadata = TestServer.owner,
        _ body: @Sendable @escaping (
            inout StreamCall<Google_Firestore_V1_WriteRequest, Google_Firestore_V1_WriteResponse>
        ) async throws -> Result
    ) async throws -> Result {
        try await bidirectional(metadata: metadata, body) { try await grpc.write(request: $0, onResponse: $1) }
    }

    /// Runs `body` on a new stream that `start` opens with a request stream fed by `send`.
    private func bidirectional<Request: Sendable, Response: Sendable, Result: Sendable>(
        metadata: Metadata,
        _ body: @Sendable @escaping (inout StreamCall<Request, Response>) async throws -> Result,
        start: (
            StreamingClientRequest<Request>,
            @Sendable @escaping (StreamingClientResponse<Response>) async throws -> Result
        ) async throws -> Result
    ) async throws -> Result {
        let (requests, continuation) = AsyncStream<Request>.makeStream()
        let request = StreamingClientRequest<Request>(metadata: metadata) { writer in
            for await message in requests { try await writer.write(message) }
        }
        return try await start(request) { response in
            var call = StreamCall(requests: continuation, responses: response.messages.makeAsyncIterator())
            defer { continuation.finish() }
            return try await body(&call)
        }
    }

    /// Waits until the request log has `count` entries for `method` (streams log when they end).
    func waitForLogEntries(_ method: String, count: Int) async throws -> [RequestLogEntry] {
        while true {
            let entries = log.all.filter { $0.method == method }
            if entries.count >= count { return entries }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Shorthands for Listen requests and for reading responses.
enum Watch {
    /// Adds a documents target.
    static func documents(
        _ id: Int32, _ paths: [String], resumeToken: Data? = nil
    ) -> Google_Firestore_V1_ListenRequest {
        var target = Google_Firestore_V1_Target()
        target.targetID = id
        target.documents.documents = paths.map { TestServer.name($0) }
        if let resumeToken { target.resumeToken = resumeToken }
        return add(target)
    }

    /// Adds a query target over `collection` (a collection group with `allDescendants`),
    /// optionally `field == value`.
    static func query(
        _ id: Int32, _ collection: String, allDescendants: Bool = false, whereEqual: (String, Value)? = nil,
        limit: Int32? = nil, resumeToken: Data? = nil, readTime: Timestamp? = nil
    ) -> Google_Firestore_V1_ListenRequest {
        var from = Google_Firestore_V1_StructuredQuery.CollectionSelector()
        from.collectionID = collection
        from.allDescendants = allDescendants
        var query = Google_Firestore_V1_StructuredQuery()
        query.from = [from]
        if let (field, value) = whereEqual {
            var filter = Google_Firestore_V1_StructuredQuery.FieldFilter()
            filter.field.fieldPath = field
            filter.op = .equal
            filter.value = value.proto
            query.where.fieldFilter = filter
        }
        if let limit { query.limit.value = limit }
        var target = Google_Firestore_V1_Target()
        target.targetID = id
        target.query.parent = TestServer.database + "/documents"
        target.query.structuredQuery = query
        if let resumeToken { target.resumeToken = resumeToken }
        if let readTime { target.readTime = readTime.proto }
        return add(target)
    }

    /// Removes a target.
    static func remove(_ id: Int32) -> Google_Firestore_V1_ListenRequest {
        var request = Google_Firestore_V1_ListenRequest()
        request.database = TestServer.database
        request.removeTarget = id
        return request
    }

    static func add(_ target: Google_Firestore_V1_Target) -> Google_Firestore_V1_ListenRequest {
        var request = Google_Firestore_V1_ListenRequest()
        request.database = TestServer.database
        request.addTarget = target
        return request
    }

    /// Whether `response` is the global `NO_CHANGE`: the consistent point.
    static func isConsistentPoint(_ response: Google_Firestore_V1_ListenResponse) -> Bool {
        guard case .targetChange(let change)? = response.responseType else { return false }
        return change.targetChangeType == .noChange && change.targetIds.isEmpty
    }

    /// Whether `response` ends the set-up of a target: its removal (it failed) or the
    /// consistent point (it is current).
    static func endsTargetSetUp(_ response: Google_Firestore_V1_ListenResponse) -> Bool {
        response.targetChange.targetChangeType == .remove || isConsistentPoint(response)
    }

    /// A compact, comparable description of a response: `ADD [1]`, `CHANGE a [1]`,
    /// `DELETE b [1]`, `REMOVE-DOC c [2]`, `FILTER 2 [1]`, `CURRENT [1]`, `NO_CHANGE []`.
    static func describe(_ response: Google_Firestore_V1_ListenResponse) -> String {
        switch response.responseType {
        case .targetChange(let change):
            let name: String =
                switch change.targetChangeType {
                case .noChange: "NO_CHANGE"
                case .add: "ADD"
                case .remove: "REMOVE"
                case .current: "CURRENT"
                case .reset: "RESET"
                case .UNRECOGNIZED(let value): "UNRECOGNIZED(\(value))"
                }
            let cause = change.hasCause ? " cause \(change.cause.code)" : ""
            return "\(name) \(change.targetIds)\(cause)"
        case .documentChange(let change): return "CHANGE \(shortName(change.document.name)) \(change.targetIds)"
        case .documentDelete(let delete): return "DELETE \(shortName(delete.document)) \(delete.removedTargetIds)"
        case .documentRemove(let remove): return "REMOVE-DOC \(shortName(remove.document)) \(remove.removedTargetIds)"
        case .filter(let filter): return "FILTER \(filter.count) [\(filter.targetID)]"
        case nil: return "EMPTY"
        }
    }

    /// A document's path in the test database, from its full name.
    static func shortName(_ name: String) -> String {
        String(name.dropFirst(TestServer.database.count + "/documents/".count))
    }
}
