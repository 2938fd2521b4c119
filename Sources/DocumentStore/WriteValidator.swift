import DocumentModel

/// Firestore's limits and validation rules for writes, checked before anything is read or
/// written so that a bad commit changes nothing.
enum WriteValidator {
    /// The deepest nesting of maps and arrays Firestore accepts.
    static let maxDepth = 20
    /// The most field transforms one document may receive in one commit.
    static let maxTransformsPerDocument = 500

    static func validate(_ writes: [Write]) throws {
        guard let first = writes.first else { return }
        var transformCounts: [DocumentName: Int] = [:]
        for write in writes {
            guard write.name.databaseID == first.name.databaseID else {
                throw FirestoreError.invalidArgument(
                    "All writes of a commit must be in one database: \(write.name.resourceName) is not in "
                        + first.name.databaseID.resourceName)
            }
            try validate(write)
            transformCounts[write.name, default: 0] += write.transforms.count
            if transformCounts[write.name]! > maxTransformsPerDocument {
                throw FirestoreError.invalidArgument(
                    "Too many field transforms on \(write.name.resourceName): at most \(maxTransformsPerDocument) "
                        + "per document in one commit")
            }
        }
    }

    private static func validate(_ write: Write) throws {
        switch write.operation {
        case .delete:
            guard write.transforms.isEmpty else {
                throw FirestoreError.invalidArgument(
                    "A delete of \(write.name.resourceName) cannot have field transforms")
            }
        case .transform:
            break
        case .update(let fields, let mask):
            try validateFields(fields, name: write.name)
            for path in mask ?? [] {
                try validateFieldPath(path, name: write.name)
            }
        }
        for transform in write.transforms {
            try validateFieldPath(transform.fieldPath, name: write.name)
            switch transform.kind {
            case .increment(let operand), .maximum(let operand), .minimum(let operand):
                guard operand.isNumber else {
                    throw FirestoreError.invalidArgument(
                        "The operand of a numeric transform on '\(transform.fieldPath)' of "
                            + "\(write.name.resourceName) must be an integer or a double, not \(operand.typeName)")
                }
            case .appendMissingElements(let elements), .removeAllFromArray(let elements):
                for element in elements {
                    try validateValue(element, at: transform.fieldPath, depth: 1, name: write.name)
                }
            case .serverTimestamp:
                break
            }
        }
    }

    /// Checks field names, nesting depth and field value sizes of a document's fields.
    static func validateFields(_ fields: MapValue, name: DocumentName) throws {
        for entry in fields.entries {
            let path = FieldPath(uncheckedSegment: entry.key)
            try validateFieldName(entry.key, in: path, name: name)
            try validateValue(entry.value, at: path, depth: 1, name: name)
            let size = StorageSize.value(entry.value)
            guard size <= StorageSize.maxFieldValueBytes else {
                throw FirestoreError.invalidArgument(
                    "The value of field '\(path)' in \(name.resourceName) is \(size) bytes, more than the maximum of "
                        + "\(StorageSize.maxFieldValueBytes) bytes")
            }
        }
    }

    private static func validateValue(_ value: Value, at path: FieldPath, depth: Int, name: DocumentName) throws {
        switch value {
        case .map(let map):
            try checkDepth(depth, at: path, name: name)
            for entry in map.entries {
                let inner = path.appending(entry.key)
                try validateFieldName(entry.key, in: inner, name: name)
                try validateValue(entry.value, at: inner, depth: depth + 1, name: name)
            }
        case .array(let elements):
            try checkDepth(depth, at: path, name: name)
            for element in elements {
                try validateValue(element, at: path, depth: depth + 1, name: name)
            }
        default:
            return
        }
    }

    private static func checkDepth(_ depth: Int, at path: FieldPath, name: DocumentName) throws {
        guard depth <= maxDepth else {
            throw FirestoreError.invalidArgument(
                "Field '\(path)' in \(name.resourceName) nests maps and arrays more than \(maxDepth) levels deep")
        }
    }

    private static func validateFieldName(_ key: String, in path: FieldPath, name: DocumentName) throws {
        if ResourcePath.isReserved(key) {
            throw FirestoreError.invalidArgument(
                "Field name '\(key)' in \(name.resourceName) is reserved: names of the form __.*__ are not allowed")
        }
    }

    private static func validateFieldPath(_ path: FieldPath, name: DocumentName) throws {
        let bytes = path.description.utf8.count
        guard bytes <= FieldPath.maxBytes else {
            throw FirestoreError.invalidArgument(
                "Field path '\(path.description.prefix(100))...' in \(name.resourceName) is \(bytes) bytes, more "
                    + "than the maximum of \(FieldPath.maxBytes)")
        }
        for (index, segment) in path.segments.enumerated() {
            try validateFieldName(segment, in: FieldPath(uncheckedSegments: Array(path.segments[...index])), name: name)
        }
    }

    /// Checks the 1 MiB limit on a document's storage size.
    static func validateSize(of fields: MapValue, name: DocumentName) throws {
        let size = StorageSize.document(path: name.path, fields: fields)
        guard size <= StorageSize.maxDocumentBytes else {
            throw FirestoreError.invalidArgument(
                "Document \(name.resourceName) is \(size) bytes, more than the maximum of "
                    + "\(StorageSize.maxDocumentBytes) bytes (1 MiB)")
        }
    }
}
