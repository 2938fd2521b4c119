import DocumentStore
import FirestoreProto
import FirestoreWire

extension WriteResult {
    /// The result as a `google.firestore.v1.WriteResult` message.
    var proto: Google_Firestore_V1_WriteResult {
        var message = Google_Firestore_V1_WriteResult()
        if let updateTime { message.updateTime = updateTime.proto }
        message.transformResults = transformResults.map(\.proto)
        return message
    }
}
