import FirestoreProto
import GRPCCore
import SwiftProtobuf

/// The RPCs that wait for parts of Hearth not built yet. Each fails with UNIMPLEMENTED naming
/// what it needs (`MissingFeature`), through the runner, so it is logged like any request.
extension FirestoreService {
    func partitionQuery(
        request: ServerRequest<Google_Firestore_V1_PartitionQueryRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firestore_V1_PartitionQueryResponse> {
        await unary(request, "PartitionQuery", path: request.message.parent) { _ in
            throw MissingFeature.partitionQuery.error("PartitionQuery")
        }
    }

    func executePipeline(
        request: ServerRequest<Google_Firestore_V1_ExecutePipelineRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firestore_V1_ExecutePipelineResponse> {
        await unimplementedStream(request.metadata, "ExecutePipeline", path: request.message.database, .pipelines)
    }

    /// A streaming RPC that fails at once with `feature`'s UNIMPLEMENTED status.
    private func unimplementedStream<Output: Sendable>(
        _ metadata: Metadata, _ method: String, path: String, _ feature: MissingFeature
    ) async -> StreamingServerResponse<Output> {
        do throws(WireStatus) {
            return try await runner.run(
                .grpc, method: method, path: path, authorization: metadata.authorization
            ) { _ throws -> StreamingServerResponse<Output> in throw feature.error(method) }
        } catch {
            return StreamingServerResponse(error: error.rpcError)
        }
    }
}
