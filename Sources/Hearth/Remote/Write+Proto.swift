import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire

extension Write {
    /// The write as a `google.firestore.v1.Write` message: an update (with its mask), a
    /// delete, or a transform-only write, with update transforms and the precondition.
    var proto: Google_Firestore_V1_Write {
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
    var proto: Google_Firestore_V1_DocumentTransform.FieldTransform {
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
