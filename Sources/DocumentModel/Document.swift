/// A stored document: its name, fields, and the times it was created and last updated.
public struct Document: Sendable, Hashable {
    /// The document's full name.
    public var name: DocumentName
    /// The document's fields.
    public var fields: MapValue
    /// The commit time that created this document (since it last did not exist).
    public var createTime: Timestamp
    /// The commit time of the last change to the document.
    public var updateTime: Timestamp

    public init(name: DocumentName, fields: MapValue, createTime: Timestamp, updateTime: Timestamp) {
        self.name = name
        self.fields = fields
        self.createTime = createTime
        self.updateTime = updateTime
    }

    /// Firestore's storage size of the document (see `StorageSize`).
    package var storageSize: Int { StorageSize.document(path: name.path, fields: fields) }
}
