import DocumentModel
import FirestoreProto
import FirestoreWire
import Foundation

/// The messages a Listen stream sends, built the way Google's emulator builds them.
extension Google_Firestore_V1_ListenResponse {
    /// A target change: `ADD`, `REMOVE` (with a cause for a failed target), `CURRENT`,
    /// `RESET`, or `NO_CHANGE` (with no target ids: the consistent snapshot point).
    static func targetChange(
        _ type: Google_Firestore_V1_TargetChange.TargetChangeType, _ targetIDs: [Int32],
        resumeToken: Data? = nil, readTime: Timestamp? = nil, cause: WireStatus? = nil
    ) -> Self {
        var change = Google_Firestore_V1_TargetChange()
        change.targetChangeType = type
        change.targetIds = targetIDs
        if let resumeToken { change.resumeToken = resumeToken }
        if let readTime { change.readTime = readTime.proto }
        if let cause {
            change.cause.code = Int32(cause.code.rawValue)
            change.cause.message = cause.message
        }
        var response = Self()
        response.targetChange = change
        return response
    }

    /// A document that is (now, or still) in a target: added or modified.
    static func documentChange(_ document: Document, targetID: Int32) -> Self {
        var change = Google_Firestore_V1_DocumentChange()
        change.document = document.proto()
        change.targetIds = [targetID]
        var response = Self()
        response.documentChange = change
        return response
    }

    /// A document that does not exist (any more) at `readTime`.
    static func documentDelete(_ name: DocumentName, targetID: Int32, readTime: Timestamp) -> Self {
        var delete = Google_Firestore_V1_DocumentDelete()
        delete.document = name.resourceName
        delete.removedTargetIds = [targetID]
        delete.readTime = readTime.proto
        var response = Self()
        response.documentDelete = delete
        return response
    }

    /// A document that still exists but left a query target at `readTime`.
    static func documentRemove(_ name: DocumentName, targetID: Int32, readTime: Timestamp) -> Self {
        var remove = Google_Firestore_V1_DocumentRemove()
        remove.document = name.resourceName
        remove.removedTargetIds = [targetID]
        remove.readTime = readTime.proto
        var response = Self()
        response.documentRemove = remove
        return response
    }

    /// How many documents a resumed target holds, for the client to check its own count.
    static func existenceFilter(targetID: Int32, count: Int) -> Self {
        var filter = Google_Firestore_V1_ExistenceFilter()
        filter.targetID = targetID
        filter.count = Int32(clamping: count)
        var response = Self()
        response.filter = filter
        return response
    }
}
