import DocumentModel
import SwiftProtobuf

/// Firestore's limit on one request (10 MiB by default), enforced the same way on both
/// protocols: INVALID_ARGUMENT, as production Firestore answers, never RESOURCE_EXHAUSTED, which
/// the official clients retry until their deadline.
///
/// gRPC checks the encoded message of the RPCs that carry documents (reads are far smaller);
/// the transport itself resets streams whose message exceeds `transportLimit`, a hard cap well
/// above the limit. REST checks the body's bytes.
struct RequestSizeLimit: Sendable {
    /// The most bytes a request may have.
    let bytes: Int

    /// The cap on one gRPC message given to the transport, which resets larger streams without
    /// a status.
    var transportLimit: Int { bytes * 4 }

    /// The error for a request over the limit.
    var error: FirestoreError {
        FirestoreError.invalidArgument("Request payload size exceeds the limit: \(bytes) bytes.")
    }

    /// Throws `error` if `message` encodes to more than the limit.
    func check(_ message: some SwiftProtobuf.Message) throws {
        let encoded: [UInt8] = try message.serializedBytes()
        if encoded.count > bytes { throw error }
    }
}
