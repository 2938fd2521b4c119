import FirestoreProto
import GRPCCore

extension FirestoreService {
    /// `Listen` streams are served below grpc-swift, by `ListenStreamHandler` (so that an idle
    /// stream keeps no task). The handler passes on only Listen calls grpc-swift refuses before
    /// they get here (not gRPC, or compressed while the server enables no compression).
    func listen(
        request: StreamingServerRequest<Google_Firestore_V1_ListenRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firestore_V1_ListenResponse> {
        StreamingServerResponse(
            error: RPCError(code: .internalError, message: "Listen streams are served by the server's ListenStreamHandler"))
    }
}
