package import DocumentModel
package import SwiftProtobuf

extension Timestamp {
    /// The timestamp of a `google.protobuf.Timestamp`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` when it lies outside years 1 to 9999 or its
    ///   nanoseconds are out of range.
    package init(proto: Google_Protobuf_Timestamp) throws {
        try self.init(seconds: proto.seconds, nanoseconds: proto.nanos)
    }

    /// The timestamp as a `google.protobuf.Timestamp`.
    package var proto: Google_Protobuf_Timestamp {
        Google_Protobuf_Timestamp(seconds: seconds, nanos: nanoseconds)
    }
}
