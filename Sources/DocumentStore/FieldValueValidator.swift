import DocumentModel
import QueryEngine

/// Firestore's rules for the fields of a written document, with the messages of Google's
/// emulator (quoted in each throw), which name the offending property:
/// - a top-level field name is not empty, at most 1,500 bytes, and not reserved (`__.+__`);
/// - a nested field name is not empty or reserved, and its dotted path is at most 1,500 bytes;
/// - maps and arrays nest at most 20 deep, counting the top-level field's value as level 1;
/// - an array directly inside an array is refused;
/// - a string or bytes value is at most 1,048,487 bytes;
/// - a map with a `__type__` field must be a vector (`VectorValidator`), which counts as a leaf
///   for the nesting depth and may not be an element of an array (but may be an element of an
///   array transform's operand, as Google's emulator allows).
///
/// Where the emulator only says "Property m contains an invalid nested entity.", Hearth adds
/// what is wrong with it and where.
struct FieldValueValidator {
    /// The deepest nesting of maps and arrays Firestore accepts.
    static let maxDepth = 20
    /// The longest field name or dotted field path, in bytes.
    static let maxFieldPathBytes = 1500

    /// Whether some timestamp had sub-microsecond digits, which Firestore drops when storing.
    private(set) var needsTimestampTruncation = false

    /// Checks every field of `fields`.
    mutating func validate(_ fields: MapValue) throws {
        // Indexing (rather than iterating) reads each entry in place, without copying it.
        let entries = fields.entries
        for index in entries.indices {
            let name = entries[index].key
            if name.isEmpty { throw FirestoreError.invalidArgument("The property.name is the empty string.") }
            if name.utf8.count > FieldValueValidator.maxFieldPathBytes {
                throw FirestoreError.invalidArgument("The property.name is longer than 1500 bytes.")
            }
            if ResourcePath.isReserved(name) {
                throw FirestoreError.invalidArgument("field name \(name) is reserved")
            }
            switch entries[index].value {
            case .null, .boolean, .integer, .double:
                continue  // nothing to check (the common scalar fields, without a call)
            default:
                try validate(entries[index].value, property: name, path: name, depth: 1, inArray: false)
            }
        }
    }

    /// Checks the elements of an array transform's operand, which become elements of the
    /// array at `path`.
    mutating func validate(elements: [Value], of path: FieldPath) throws {
        let text = path.description
        for element in elements {
            if case .map(let map) = element, map[Value.vectorTypeKey] != nil {
                try VectorValidator.validateWritten(map, property: text)
                continue
            }
            try validate(element, property: text, path: text, depth: path.segments.count + 1, inArray: true)
        }
    }

    private mutating func validate(_ value: Value, property: String, path: String, depth: Int, inArray: Bool) throws {
        func nested(_ problem: String) -> FirestoreError {
            FirestoreError.invalidArgument("Property \(property) contains an invalid nested entity: \(problem).")
        }
        switch value {
        case .string(let text):
            try checkLength(text.utf8.count, property: property, path: path)
        case .bytes(let data):
            try checkLength(data.count, property: property, path: path)
        case .timestamp(let timestamp):
            if timestamp.nanoseconds % 1000 != 0 { needsTimestampTruncation = true }
        case .array(let elements):
            if inArray { throw FirestoreError.invalidArgument("Cannot convert an array value in an array value.") }
            guard depth <= FieldValueValidator.maxDepth else {
                throw nested("maps and arrays nest more than 20 levels deep at \"\(path)\"")
            }
            for element in elements {
                try validate(element, property: property, path: path, depth: depth + 1, inArray: true)
            }
        case .map(let map) where map[Value.vectorTypeKey] != nil:
            try VectorValidator.validateWritten(map, property: property)
            if inArray { throw FirestoreError.invalidArgument("Cannot convert a vector value in an array value.") }
        case .map(let map):
            guard depth <= FieldValueValidator.maxDepth else {
                throw nested("maps and arrays nest more than 20 levels deep at \"\(path)\"")
            }
            for entry in map.entries {
                let key = entry.key
                let inner = path + "." + key
                if key.isEmpty { throw nested("a field name in \"\(path)\" is empty") }
                if ResourcePath.isReserved(key) { throw FirestoreError.invalidArgument("field name '\(key)' is reserved.") }
                if inner.utf8.count > FieldValueValidator.maxFieldPathBytes {
                    throw nested("the field path \"\(inner.prefix(60))...\" is longer than 1500 bytes")
                }
                try validate(entry.value, property: property, path: inner, depth: depth + 1, inArray: false)
            }
        default:
            return
        }
    }

    private func checkLength(_ bytes: Int, property: String, path: String) throws {
        guard bytes > StorageSize.maxFieldValueBytes else { return }
        if path == property {
            throw FirestoreError.invalidArgument(
                "The value of property \"\(property)\" is longer than \(StorageSize.maxFieldValueBytes) bytes.")
        }
        throw FirestoreError.invalidArgument(
            "Property \(property) contains an invalid nested entity: the value of \"\(path)\" is longer than "
                + "\(StorageSize.maxFieldValueBytes) bytes.")
    }
}

extension Value {
    /// The value with every timestamp cut to whole microseconds, as Firestore stores it.
    var truncatingTimestamps: Value {
        switch self {
        case .timestamp(let timestamp): .timestamp(timestamp.truncatedToMicroseconds)
        case .array(let elements): .array(elements.map(\.truncatingTimestamps))
        case .map(let map): .map(map.truncatingTimestamps)
        default: self
        }
    }
}

extension MapValue {
    /// The fields with every timestamp cut to whole microseconds.
    var truncatingTimestamps: MapValue {
        MapValue(uniqueKeysWithValues: entries.map { ($0.key, $0.value.truncatingTimestamps) })
    }
}
