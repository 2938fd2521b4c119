import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation
import SecurityRules

/// One `Write` stream of the mobile SDKs, with the rules of Google's emulator.
///
/// - The handshake: the first request names the database and carries no writes, no stream id
///   and no token; the answer has a new `stream_id` and the first `stream_token`.
/// - Each later request carries the latest token the client received and writes, committed
///   atomically as `Commit` commits them (as the caller, so security rules judge them); the
///   answer has the next token, the commit time and a result per write.
/// - A request without writes asks to close: it is answered with a token, then the stream
///   ends.
///
/// Tokens are decimal counters as Google's emulator makes them (`0`, `1`, ...). Unlike Google's
/// emulator, which ignores them, Hearth checks that a request's token is one this stream issued
/// and not older than one already acknowledged, as production Firestore does.
struct WriteSession {
    /// Where the stream is.
    enum State {
        /// Waiting for the handshake.
        case awaitingHandshake
        /// Open on `database`; tokens up to `issued` were sent, `acknowledged` was the last
        /// one the client sent back.
        case open(database: DatabaseID, issued: UInt64, acknowledged: UInt64)
        /// Closed by a request without writes.
        case closed
    }

    private let store: DocumentStore
    private let identity: RequestIdentity
    /// The id the handshake answers with.
    let streamID: String
    private(set) var state = State.awaitingHandshake

    init(store: DocumentStore, identity: RequestIdentity, streamID: String) {
        self.store = store
        self.identity = identity
        self.streamID = streamID
    }

    /// Whether the stream was closed by the client's request without writes.
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Answers one request.
    ///
    /// - Throws: `FirestoreError` (the stream then ends with its status): INVALID_ARGUMENT for
    ///   a malformed handshake, a foreign database or token, and the commit's own errors.
    mutating func answer(_ request: Google_Firestore_V1_WriteRequest) async throws -> Google_Firestore_V1_WriteResponse {
        guard request.streamID.isEmpty else {
            throw FirestoreError.invalidArgument("Resuming streams is not supported, do not set stream ID.")
        }
        switch state {
        case .awaitingHandshake:
            return try handshake(request)
        case .open(let database, let issued, let acknowledged):
            guard request.database.isEmpty || request.database == database.resourceName else {
                throw FirestoreError.invalidArgument(
                    "Request specified a database (\(request.database)) that did not match the expected database "
                        + "(\(database.resourceName))")
            }
            let token = String(decoding: request.streamToken, as: UTF8.self)
            guard let acknowledging = UInt64(token), (acknowledged...issued).contains(acknowledging) else {
                throw FirestoreError.invalidArgument(
                    request.streamToken.isEmpty
                        ? "'stream_token' must be set on a write request after the handshake."
                        : "Invalid 'stream_token' \"\(token)\": send the latest token of this stream's responses.")
            }
            var response = Google_Firestore_V1_WriteResponse()
            response.streamToken = Data(String(issued + 1).utf8)
            guard !request.writes.isEmpty else {
                state = .closed
                return response
            }
            RequestDocuments.current?.note(request.writes.lazy.compactMap(\.documentName))
            let writes = try request.writes.map { try Write(proto: $0, in: database) }
            let result = try await store.commitWaitingForLocks(writes, as: identity)
            state = .open(database: database, issued: issued + 1, acknowledged: acknowledging)
            response.commitTime = result.commitTime.proto
            response.writeResults = result.writeResults.map(\.proto)
            return response
        case .closed:
            throw FirestoreError.invalidArgument(
                "A non-initial request with empty writes was received. Not accepting further requests")
        }
    }

    private mutating func handshake(
        _ request: Google_Firestore_V1_WriteRequest
    ) throws -> Google_Firestore_V1_WriteResponse {
        guard !request.database.isEmpty else {
            throw FirestoreError.invalidArgument("'database' must be set on an initial write request.")
        }
        guard request.streamToken.isEmpty else {
            throw FirestoreError.invalidArgument(
                "Resuming streams is not supported, 'stream_token' must not be set on an initial write request.")
        }
        guard request.writes.isEmpty else {
            throw FirestoreError.invalidArgument("'writes' must not be set on an initial write request.")
        }
        state = .open(database: try ResourceName.database(request.database), issued: 0, acknowledged: 0)
        var response = Google_Firestore_V1_WriteResponse()
        response.streamID = streamID
        response.streamToken = Data("0".utf8)
        return response
    }
}
