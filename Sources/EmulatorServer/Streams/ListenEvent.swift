import FirestoreProto

/// What a Listen session reacts to: the client's requests and its targets' snapshots.
enum ListenEvent: Sendable {
    /// A request from the client, the end of its requests (or of its stream), or the server's
    /// shutdown.
    case client(ClientInput<Google_Firestore_V1_ListenRequest>)
    /// One part of the target with `serial` may have a snapshot ready (`ListenerStream.onReady`):
    /// its first one, a change, or its end.
    case ready(serial: Int, part: Int)
}

extension ListenEvent {
    /// The request-log path of a Listen stream whose first events are `batch` (see
    /// `ClientInput.logPath(opening:database:)`).
    static func logPath(opening batch: [ListenEvent]) -> String? {
        guard case .client(let opening)? = batch.first else { return nil }
        return ClientInput.logPath(opening: opening, database: \.database)
    }
}
