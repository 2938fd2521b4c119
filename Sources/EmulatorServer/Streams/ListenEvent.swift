import DocumentStore
import FirestoreProto

/// What a Listen session reacts to: the client's requests and its targets' snapshots.
enum ListenEvent: Sendable {
    /// A request from the client, the end of its requests, or the RPC's cancellation.
    case client(ClientInput<Google_Firestore_V1_ListenRequest>)
    /// A snapshot of one part of the target with `serial`.
    case snapshot(serial: Int, part: Int, ListenSnapshot)
    /// A part of the target with `serial` failed.
    case targetFailed(serial: Int, any Error)
    /// A part of the target with `serial` ended without being stopped: the store is closing.
    case targetEnded(serial: Int)
}
