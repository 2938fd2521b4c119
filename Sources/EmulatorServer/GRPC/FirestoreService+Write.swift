import FirestoreProto
import GRPCCore

extension FirestoreService {
    /// `Write`: the mobile SDKs' stream of write batches (see `WriteSession`). The whole stream
    /// is one request for the runner: one log line, when it ends.
    func write(
        request: StreamingServerRequest<Google_Firestore_V1_WriteRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firestore_V1_WriteResponse> {
        StreamingServerResponse { [api, runner, sizeLimit] writer in
            let inbox = SessionInbox<ClientInput<Google_Firestore_V1_WriteRequest>>()
            try await ClientInput.pump(request.messages, into: inbox, as: { $0 }) {
                let first = await inbox.takeAll()
                guard let path = ClientInput.logPath(opening: first.first, database: \.database) else { return }
                do throws(WireStatus) {
                    let end = try await runner.run(
                        .grpc, method: "Write", path: path,
                        authorization: request.metadata.authorization
                    ) { context in
                        if path != "-" { _ = try api.seededDatabase(path) }
                        var session = WriteSession(
                            store: api.store, identity: context.identity, streamID: FirestoreAPI.autoID())
                        return try await session.run(pending: first, inbox: inbox, writer: writer, sizeLimit: sizeLimit)
                    }
                    try end.check("Write")
                } catch {
                    throw error.rpcError
                }
            }
            return [:]
        }
    }
}
