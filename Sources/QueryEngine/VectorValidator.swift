package import DocumentModel

/// Firestore's rules for vector values (`Value+Vector.swift`), with Google's emulator's messages
/// (all `.invalidArgument`), checked in this order:
/// - a map with a `__type__` field is a typed value: `__type__` must be the string
///   `"__vector__"` (in written documents; query operands with another type are plain maps);
/// - the map has a `value` field and no other field besides `__type__`;
/// - `value` is an array of at most 2,048 and at least one element, all doubles;
/// - a written vector holds no NaN (a query operand may).
package enum VectorValidator {
    /// Checks a map with a `__type__` field in a written document; `property` is the top-level
    /// field it is in.
    package static func validateWritten(_ map: MapValue, property: String) throws {
        guard case .string(let type) = map[Value.vectorTypeKey] else {
            throw FirestoreError.invalidArgument("Field \(Value.vectorTypeKey) is not a string.")
        }
        guard utf8Equal(type, Value.vectorTypeName) else {
            throw FirestoreError.invalidArgument("Property \(property) contains an invalid nested entity.")
        }
        let elements = try validateShape(map)
        if elements.contains(where: \.isNaN) {
            throw FirestoreError.invalidArgument("Vector cannot contain NaN values.")
        }
    }

    /// Checks every vector in a query operand (a filter value or cursor value, at any depth),
    /// and returns nothing; maps typed otherwise are left alone, as Google's emulator does.
    package static func validateOperand(_ value: Value) throws {
        switch value {
        case .array(let elements):
            for element in elements { try validateOperand(element) }
        case .map(let map):
            if case .string(let type) = map[Value.vectorTypeKey], utf8Equal(type, Value.vectorTypeName) {
                _ = try validateShape(map)
                return
            }
            for entry in map.entries { try validateOperand(entry.value) }
        default:
            return
        }
    }

    /// Checks a query vector (`findNearest`), which must be a vector.
    package static func validateQueryVector(_ value: Value) throws -> [Double] {
        guard case .map(let map) = value, case .string(let type) = map[Value.vectorTypeKey],
            utf8Equal(type, Value.vectorTypeName)
        else { throw FirestoreError.invalidArgument("Query Value must be of type vector.") }
        return try validateShape(map)
    }

    /// The elements of a map typed `__vector__`, if it is a well-formed vector.
    private static func validateShape(_ map: MapValue) throws -> [Double] {
        guard let value = map[Value.vectorValueKey] else {
            throw FirestoreError.invalidArgument("Vector map is missing key '\(Value.vectorValueKey)'.")
        }
        guard map.count == 2 else { throw FirestoreError.invalidArgument("Vector Value map has extraneous entries.") }
        guard case .array(let elements) = value else {
            throw FirestoreError.invalidArgument("Vector Value type must be an array.")
        }
        guard elements.count <= Value.maxVectorDimensions else {
            throw FirestoreError.invalidArgument("Vectors must be at most \(Value.maxVectorDimensions) dimensions.")
        }
        guard !elements.isEmpty else { throw FirestoreError.invalidArgument("Cannot have a zero length vector.") }
        return try elements.map { element in
            guard case .double(let number) = element else {
                throw FirestoreError.invalidArgument("Vector must only contain values of type 'double'")
            }
            return number
        }
    }
}
