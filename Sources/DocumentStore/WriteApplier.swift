import DocumentModel

/// Applies one write to a document's current state: its precondition, its operation and its
/// field transforms.
enum WriteApplier {
    /// Checks a precondition against the document's current state.
    static func check(_ precondition: Precondition, against current: StoredVersion?, name: DocumentName) throws {
        let existing = current?.document
        switch precondition {
        case .none:
            return
        case .exists(true):
            guard existing != nil else {
                throw FirestoreError(.notFound, "No document to update: \(name.resourceName)")
            }
        case .exists(false):
            guard existing == nil else {
                throw FirestoreError(.alreadyExists, "Document already exists: \(name.resourceName)")
            }
        case .updateTime(let expected):
            let stored = existing?.updateTime.microsecondsSinceEpoch ?? 0
            // Google's emulator refuses a base version newer than an existing document's as
            // invalid, not as a failed precondition (the official client's tests expect it).
            if existing != nil, expected.microsecondsSinceEpoch > stored {
                throw FirestoreError.invalidArgument(
                    "Invalid base version, it is greater than the stored version: \(name.resourceName)")
            }
            guard stored == expected.microsecondsSinceEpoch else {
                throw FirestoreError(
                    .failedPrecondition,
                    "the stored version (\(stored)) does not match the required base version "
                        + "(\(expected.microsecondsSinceEpoch)) of \(name.resourceName)")
            }
        }
    }

    /// The document's state after `write`, and the write's transform results.
    static func apply(
        _ write: Write, to current: StoredVersion?, commitTime: Timestamp
    ) throws -> (StoredVersion, [Value]) {
        let existing = current?.document
        var fields: MapValue
        switch write.operation {
        case .delete:
            return (.tombstone, [])
        case .update(let newFields, nil):
            fields = newFields
        case .update(let newFields, let mask?):
            fields = existing?.fields ?? MapValue()
            for path in mask {
                if let value = newFields.value(at: path) {
                    fields.setValue(value, at: path)
                } else {
                    fields.removeValue(at: path)
                }
            }
        case .transform:
            fields = existing?.fields ?? MapValue()
        }
        var results: [Value] = []
        results.reserveCapacity(write.transforms.count)
        for transform in write.transforms {
            let (value, result) = try FieldTransformer.apply(
                transform.kind, to: fields.value(at: transform.fieldPath), commitTime: commitTime)
            fields.setValue(value, at: transform.fieldPath)
            results.append(result)
        }
        try WriteValidator.validateSize(of: fields, name: write.name)
        let document = Document(
            name: write.name, fields: fields, createTime: existing?.createTime ?? commitTime, updateTime: commitTime)
        return (.live(document), results)
    }
}
