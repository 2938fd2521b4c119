package import DocumentModel
package import FirestoreProto

extension Document {
    /// The document of a `google.firestore.v1.Document` message, as a server returns it.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for a malformed name, value or timestamp.
    package init(proto: Google_Firestore_V1_Document) throws {
        self.init(
            name: try ResourceName.document(proto.name), fields: try MapValue(proto: proto.fields),
            createTime: try Timestamp(proto: proto.createTime), updateTime: try Timestamp(proto: proto.updateTime))
    }
}
