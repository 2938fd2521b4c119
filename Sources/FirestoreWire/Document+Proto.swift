package import DocumentModel
package import FirestoreProto

extension Document {
    /// The document as a `google.firestore.v1.Document` message, its fields projected onto
    /// `mask` when one is given.
    package func proto(mask: [FieldPath]? = nil) -> Google_Firestore_V1_Document {
        var message = Google_Firestore_V1_Document()
        message.name = name.resourceName
        message.fields = (mask.map { fields.projected(onto: $0) } ?? fields).protoFields
        message.createTime = createTime.proto
        message.updateTime = updateTime.proto
        return message
    }
}

extension MapValue {
    /// The fields at `paths` (a `DocumentMask`), nested as they are in the document; paths that
    /// are not present are left out.
    package func projected(onto paths: [FieldPath]) -> MapValue {
        var result = MapValue()
        for path in paths {
            if let value = value(at: path) { result.setValue(value, at: path) }
        }
        return result
    }
}

extension Google_Firestore_V1_DocumentMask {
    /// The mask's field paths, parsed from their dotted, back-quoted text.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming an invalid path.
    package func fieldPathList() throws -> [FieldPath] {
        try fieldPaths.map { try FieldPath($0) }
    }
}
