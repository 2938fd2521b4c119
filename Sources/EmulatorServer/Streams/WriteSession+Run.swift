import FirestoreProto
import GRPCCore

extension WriteSession {
    /// Serves the stream: answers each request in order until the client closes the stream
    /// (or leaves); `pending` are inputs taken from `inbox` already.
    ///
    /// - Throws: the first failure (the stream ends with its status): an oversized request, or
    ///   a request `answer(_:)` refuses.
    mutating func run(
        pending: [ClientInput<Google_Firestore_V1_WriteRequest>],
        inbox: SessionInbox<ClientInput<Google_Firestore_V1_WriteRequest>>,
        writer: RPCWriter<Google_Firestore_V1_WriteResponse>, sizeLimit: RequestSizeLimit
    ) async throws -> StreamEnd {
        var batch = pending
        while !batch.isEmpty {
            for input in batch {
                switch input {
                case .request(let request):
                    try sizeLimit.check(request)
                    try await writer.write(try await answer(request))
                    if isClosed { return .closed }
                case .ended:
                    return .closed
                case .failed(let error):
                    if ClientInput<Google_Firestore_V1_WriteRequest>.isDeparture(error) { return .closed }
                    throw error
                case .cancelled:
                    return .cancelled
                }
            }
            batch = await inbox.takeAll()
        }
        return .cancelled
    }
}
