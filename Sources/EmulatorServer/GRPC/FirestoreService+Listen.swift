import DocumentStore
import FirestoreProto
import GRPCCore

extension FirestoreService {
    /// `Listen`: the bidirectional stream of snapshot listeners (see `ListenSession`). The
    /// whole stream is one request for the runner: one log line, when it ends.
    func listen(
        request: StreamingServerRequest<Google_Firestore_V1_ListenRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firestore_V1_ListenResponse> {
        StreamingServerResponse { [runner] writer in
            let inbox = SessionInbox<ListenEvent>()
            try await ClientInput.pump(request.messages, into: inbox, as: ListenEvent.client) {
                let first = await inbox.takeAll()
                guard let path = ListenEvent.logPath(opening: first) else { return }
                do throws(WireStatus) {
                    let end = try await runner.run(
                        .grpc, method: "Listen", path: path,
                        authorization: request.metadata.authorization
                    ) { context in
                        try await session(path: path, identity: context.identity, inbox: inbox, writer: writer)
                            .run(pending: first)
                    }
                    try end.check("Listen")
                } catch {
                    throw error.rpcError
                }
            }
            return [:]
        }
    }

    /// The session of a Listen stream on `path`'s database, seeded first if it is new. Out of
    /// line, so that an idle stream's frames hold none of this.
    @inline(never)
    private func session(
        path: String, identity: RequestIdentity, inbox: SessionInbox<ListenEvent>,
        writer: RPCWriter<Google_Firestore_V1_ListenResponse>
    ) throws -> ListenSession {
        if path != "-" { _ = try api.seededDatabase(path) }
        return ListenSession(store: api.store, identity: identity, inbox: inbox, writer: writer)
    }
}
