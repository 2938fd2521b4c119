import DocumentModel

/// Firestore's validation rules for a commit's writes, checked before anything is read or
/// written so that a bad commit changes nothing. Messages follow Google's emulator where it has
/// one; see `Docs/Compatibility.md` for the limits Hearth enforces and the emulator does not.
enum WriteValidator {
    /// The most field transforms one document may receive in one commit (a production Firestore
    /// limit that Google's emulator does not enforce).
    static let maxTransformsPerDocument = 500
    /// The most names in a field path of a mask or transform.
    static let maxFieldPathSegments = 20
    /// The longest field path of a mask or transform, in bytes (its names joined with dots).
    static let maxMaskPathBytes = 1499

    /// Validates `writes` and returns them ready to apply (timestamps cut to microseconds).
    static func validated(_ writes: [Write]) throws -> [Write] {
        guard let first = writes.first else { return writes }
        var result = writes
        var inserts = 0
        var transforms = 0
        for index in writes.indices {
            let write = writes[index]
            guard index == writes.startIndex || write.name.databaseID == first.name.databaseID else {
                throw FirestoreError.invalidArgument(
                    "All writes of a commit must be in one database: \(write.name.resourceName) is not in "
                        + first.name.databaseID.resourceName)
            }
            if write.precondition == .exists(false) { inserts += 1 }
            transforms += write.transforms.count
            if let changed = try validated(write) { result[index] = changed }
        }
        // Per-document rules need a pass keyed by name only when they could be broken.
        if inserts > 1 || transforms > maxTransformsPerDocument {
            try checkPerDocumentRules(writes)
        }
        return result
    }

    /// No document inserted twice, and at most `maxTransformsPerDocument` transforms per document.
    private static func checkPerDocumentRules(_ writes: [Write]) throws {
        var seen: [DocumentName: (transforms: Int, inserted: Bool)] = [:]
        seen.reserveCapacity(writes.count)
        for write in writes {
            let inserts = write.precondition == .exists(false)
            let (insertedTwice, transformCount) = { (entry: inout (transforms: Int, inserted: Bool)) in
                let twice = inserts && entry.inserted
                entry.inserted = entry.inserted || inserts
                entry.transforms += write.transforms.count
                return (twice, entry.transforms)
            }(&seen[write.name, default: (0, false)])
            if insertedTwice {
                throw FirestoreError.invalidArgument("Cannot insert then insert an entity in the same request.")
            }
            if transformCount > maxTransformsPerDocument {
                throw FirestoreError.invalidArgument(
                    "Too many field transforms on \(write.name.resourceName): at most \(maxTransformsPerDocument) "
                        + "per document in one commit")
            }
        }
    }

    /// Validates one write; returns it changed (timestamps cut to microseconds) or `nil` if it
    /// is fine as it is.
    private static func validated(_ write: Write) throws -> Write? {
        var changed: Write?
        if case .updateTime(let time) = write.precondition {
            try requireMicroseconds(time)
        }
        switch write.operation {
        case .delete:
            guard write.transforms.isEmpty else {
                throw FirestoreError.invalidArgument("A delete of \(write.name.resourceName) cannot have field transforms")
            }
        case .transform:
            guard !write.transforms.isEmpty else {
                throw FirestoreError.invalidArgument("The list of FieldTransform must not be empty.")
            }
        case .update(let fields, let mask):
            var validator = FieldValueValidator()
            try validator.validate(fields)
            for path in mask ?? [] {
                try validateMaskPath(path, valuePresent: fields.value(at: path) != nil)
            }
            if validator.needsTimestampTruncation {
                var copy = write
                copy.operation = .update(fields: fields.truncatingTimestamps, mask: mask)
                changed = copy
            }
        }
        guard !write.transforms.isEmpty else { return changed }
        var transformed = changed ?? write
        if try validateTransforms(&transformed) { return transformed }
        return changed
    }

    /// Checks the write's transforms; returns whether it changed them (timestamps cut).
    private static func validateTransforms(_ write: inout Write) throws -> Bool {
        var changed = false
        for (index, transform) in write.transforms.enumerated() {
            let path = transform.fieldPath
            try validatePathShape(path)
            if let reserved = path.segments.first(where: ResourcePath.isReserved) {
                throw FirestoreError.invalidArgument("Invalid reserved name in field path \(reserved)")
            }
            for other in write.transforms[..<index]
            where other.fieldPath != path && (other.fieldPath.hasPrefix(path) || path.hasPrefix(other.fieldPath)) {
                let outer = other.fieldPath.hasPrefix(path) ? path : other.fieldPath
                throw FirestoreError.invalidArgument(
                    "Cannot transform property \(outer) and its nested property at the same time.")
            }
            switch transform.kind {
            case .increment(let operand), .maximum(let operand), .minimum(let operand):
                guard operand.isNumber else {
                    throw FirestoreError.invalidArgument(
                        "Input must be int64 or double. (The \(operand.typeName) operand of the transform of "
                            + "\"\(path)\" in \(write.name.resourceName).)")
                }
            case .appendMissingElements(let elements), .removeAllFromArray(let elements):
                var validator = FieldValueValidator()
                try validator.validate(elements: elements, of: path)
                if validator.needsTimestampTruncation {
                    let truncated = elements.map(\.truncatingTimestamps)
                    write.transforms[index].kind =
                        if case .appendMissingElements = transform.kind { .appendMissingElements(truncated) }
                        else { .removeAllFromArray(truncated) }
                    changed = true
                }
            case .serverTimestamp:
                break
            }
        }
        return changed
    }

    /// The grammar limits on a mask path, and reserved names with the emulator's two messages.
    private static func validateMaskPath(_ path: FieldPath, valuePresent: Bool) throws {
        try validatePathShape(path)
        for (index, segment) in path.segments.enumerated() where ResourcePath.isReserved(segment) {
            if !valuePresent { throw FirestoreError.invalidArgument("Invalid reserved name in field path \(segment)") }
            throw FirestoreError.invalidArgument(
                index == 0 ? "field name \(segment) is reserved" : "field name '\(segment)' is reserved.")
        }
    }

    private static func validatePathShape(_ path: FieldPath) throws {
        guard path.segments.count <= maxFieldPathSegments else {
            throw FirestoreError.invalidArgument("paths must have at most 20 elements (\"\(path)\" has \(path.segments.count))")
        }
        let bytes = path.segments.reduce(path.segments.count - 1) { $0 + $1.utf8.count }
        guard bytes <= maxMaskPathBytes else {
            throw FirestoreError.invalidArgument("property path is longer than 1500 bytes.")
        }
    }

    /// Firestore refuses timestamps with sub-microsecond digits in preconditions and read times.
    static func requireMicroseconds(_ time: Timestamp) throws {
        guard time.nanoseconds % 1000 == 0 else {
            throw FirestoreError.invalidArgument("timestamp cannot have more than microseconds precision")
        }
    }
}
