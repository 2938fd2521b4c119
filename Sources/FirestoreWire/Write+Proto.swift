package import DocumentModel
package import FirestoreProto

// Writes both ways: the server decodes them, the client's remote backend encodes them.

extension Write {
    /// The store write of a `google.firestore.v1.Write` message in `database`.
    ///
    /// An `update` with an `update_mask` becomes a masked update (set with merge, or update), a
    /// `transform` write becomes a transform-only write; `update_transforms` and
    /// `current_document` carry over.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for an empty write, a document outside
    ///   `database`, and malformed names, values, paths and transforms.
    package init(proto: Google_Firestore_V1_Write, in database: DatabaseID) throws {
        let name: DocumentName
        let operation: Operation
        var transforms = try proto.updateTransforms.map(FieldTransform.init(proto:))
        switch proto.operation {
        case nil:
            throw FirestoreError.invalidArgument("empty write operation")
        case .update(let document):
            name = try ResourceName.document(document.name)
            let mask = proto.hasUpdateMask ? try proto.updateMask.fieldPathList() : nil
            operation = .update(fields: try MapValue(proto: document.fields), mask: mask)
        case .delete(let documentName):
            name = try ResourceName.document(documentName)
            guard transforms.isEmpty, !proto.hasUpdateMask else {
                throw FirestoreError.invalidArgument("A delete cannot have an update mask or update transforms")
            }
            operation = .delete
        case .transform(let transform):
            name = try ResourceName.document(transform.document)
            guard transforms.isEmpty, !proto.hasUpdateMask else {
                throw FirestoreError.invalidArgument("A transform write cannot have an update mask or update transforms")
            }
            transforms = try transform.fieldTransforms.map(FieldTransform.init(proto:))
            operation = .transform
        }
        guard name.databaseID == database else {
            throw FirestoreError.invalidArgument(
                "Document \"\(name.resourceName)\" is not in the database \"\(database.resourceName)\" of the request")
        }
        let precondition = proto.hasCurrentDocument ? try Precondition(proto: proto.currentDocument) : .none
        self.init(name: name, operation: operation, transforms: transforms, precondition: precondition)
    }
}

extension Google_Firestore_V1_Write {
    /// The name of the document the write names, as the message spells it (`update.name`,
    /// `delete` or `transform.document`); `nil` for a write without an operation.
    package var documentName: String? {
        switch operation {
        case .update(let document): document.name
        case .delete(let name): name
        case .transform(let transform): transform.document
        case nil: nil
        }
    }
}

extension Precondition {
    /// The precondition of a `google.firestore.v1.Precondition`; an empty one is `.none`.
    package init(proto: Google_Firestore_V1_Precondition) throws {
        switch proto.conditionType {
        case nil: self = .none
        case .exists(let exists): self = .exists(exists)
        case .updateTime(let time): self = .updateTime(try Timestamp(proto: time))
        }
    }
}

extension FieldTransform {
    /// The transform of a `DocumentTransform.FieldTransform` message.
    package init(proto: Google_Firestore_V1_DocumentTransform.FieldTransform) throws {
        let path = try FieldPath(proto.fieldPath)
        switch proto.transformType {
        case nil:
            throw FirestoreError.invalidArgument("The transform of field '\(proto.fieldPath)' has no transform type")
        case .setToServerValue(.requestTime):
            self.init(path, .serverTimestamp)
        case .setToServerValue(let other):
            throw FirestoreError.invalidArgument("Unsupported server value \(other) for field '\(proto.fieldPath)'")
        case .increment(let value): self.init(path, .increment(try Value(proto: value)))
        case .maximum(let value): self.init(path, .maximum(try Value(proto: value)))
        case .minimum(let value): self.init(path, .minimum(try Value(proto: value)))
        case .appendMissingElements(let array):
            self.init(path, .appendMissingElements(try array.values.map(Value.init(proto:))))
        case .removeAllFromArray(let array):
            self.init(path, .removeAllFromArray(try array.values.map(Value.init(proto:))))
        }
    }
}

extension Write {
    /// The write as a `google.firestore.v1.Write` message: an update (with its mask), a
    /// delete, or a transform-only write, with update transforms and the precondition.
    package var proto: Google_Firestore_V1_Write {
        var message = Google_Firestore_V1_Write()
        switch operation {
        case .update(let fields, let mask):
            var document = Google_Firestore_V1_Document()
            document.name = name.resourceName
            document.fields = fields.protoFields
            message.update = document
            if let mask {
                var documentMask = Google_Firestore_V1_DocumentMask()
                documentMask.fieldPaths = mask.map(\.description)
                message.updateMask = documentMask
            }
            message.updateTransforms = transforms.map(\.proto)
        case .delete:
            message.delete = name.resourceName
        case .transform:
            var transform = Google_Firestore_V1_DocumentTransform()
            transform.document = name.resourceName
            transform.fieldTransforms = transforms.map(\.proto)
            message.transform = transform
        }
        switch precondition {
        case .none: break
        case .exists(let exists): message.currentDocument.exists = exists
        case .updateTime(let time): message.currentDocument.updateTime = time.proto
        }
        return message
    }
}

extension FieldTransform {
    /// The transform as a `DocumentTransform.FieldTransform` message.
    package var proto: Google_Firestore_V1_DocumentTransform.FieldTransform {
        var message = Google_Firestore_V1_DocumentTransform.FieldTransform()
        message.fieldPath = fieldPath.description
        switch kind {
        case .serverTimestamp: message.setToServerValue = .requestTime
        case .increment(let value): message.increment = value.proto
        case .maximum(let value): message.maximum = value.proto
        case .minimum(let value): message.minimum = value.proto
        case .appendMissingElements(let values):
            var array = Google_Firestore_V1_ArrayValue()
            array.values = values.map(\.proto)
            message.appendMissingElements = array
        case .removeAllFromArray(let values):
            var array = Google_Firestore_V1_ArrayValue()
            array.values = values.map(\.proto)
            message.removeAllFromArray = array
        }
        return message
    }
}
