package import DocumentModel

/// Firestore's `select`: only the listed fields (maps keep their shape down to them); `[]`
/// or `__name__` alone keeps no field. Create and update times are kept.
package enum Projection {
    package static func apply(_ fields: [FieldPath]?, to document: Document) -> Document {
        guard let fields else { return document }
        var projected = document
        projected.fields = MapValue()
        for path in fields where !path.isDocumentName {
            if let value = document.fields.value(at: path) { projected.fields.setValue(value, at: path) }
        }
        return projected
    }
}
