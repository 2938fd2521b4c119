import FirestoreProto
import GRPCCore

extension FirestoreService {
    /// `Listen`: the bidirectional stream of snapshot listeners (see `ListenSession`). The
    /// whole stream is one request for the runner: one log line, when it ends.
    func listen(
        request: StreamingServerRequest<Google_Firestore_V1_ListenRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firestore_V1_ListenResponse> {
        StreamingServerResponse { [api, runner] writer in
            let inbox = SessionInbox<ListenEvent>()
            try await ClientInput.pump(request.messages, into: inbox, as: ListenEvent.client) {
                let first = await inbox.takeAll()
                guard case .client(let opening)? = first.first,
                    let path = ClientInput.logPath(opening: opening, database: \.database)
                else { return }
                do throws(WireStatus) {
                    let end = try await runner.run(
                        .grpc, method: "Listen", path: path,
                        authorization: request.metadata.authorization
                    ) { context in
                        if path != "-" { _ = try api.seededDatabase(path) }
                        return try await ListenSession(
                            store: api.store, identity: context.identity, inbox: inbox, writer: writer
                        ).run(pending: first)
                    }
                    try end.check("Listen")
                } catch {
                    throw error.rpcError
                }
            }
            return [:]
        }
    }
}
