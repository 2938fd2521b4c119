package import DocumentModel

/// Applies one write to a document's current state: its precondition, its operation and its
/// field transforms. The store's commit and the client's local view (pending writes over the
/// cache) both apply writes through it.
package enum WriteApplication {
    /// Checks a precondition against the document's current state (`existing`, `nil` when it
    /// does not exist).
    ///
    /// - Throws: `.notFound` / `.alreadyExists` for `exists`, `.failedPrecondition` for a
    ///   mismatched update time (`.invalidArgument` when it is newer than the stored one), with
    ///   Google's emulator's messages.
    package static func check(_ precondition: Precondition, against existing: Document?, name: DocumentName) throws {
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

    /// The document after `write` (`nil`: deleted) and its transforms' results; the precondition
    /// is not checked (see `check`). A created document gets `commitTime` as its create time.
    ///
    /// - Throws: a transform's error, or `.invalidArgument` when the result exceeds the 1 MiB
    ///   document limit.
    package static func apply(
        _ write: Write, to existing: Document?, commitTime: Timestamp
    ) throws -> (document: Document?, transformResults: [Value]) {
        var fields: MapValue
        switch write.operation {
        case .delete:
            return (nil, [])
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
        try validateSize(of: fields, name: write.name)
        let document = Document(
            name: write.name, fields: fields, createTime: existing?.createTime ?? commitTime, updateTime: commitTime)
        return (document, results)
    }

    /// Checks the 1 MiB limit on a document's storage size.
    package static func validateSize(of fields: MapValue, name: DocumentName) throws {
        let size = StorageSize.document(path: name.path, fields: fields)
        guard size <= StorageSize.maxDocumentBytes else {
            throw FirestoreError.invalidArgument(
                "maximum entity size is \(StorageSize.maxDocumentBytes) bytes (\(name.resourceName) would be \(size) bytes)")
        }
    }
}
