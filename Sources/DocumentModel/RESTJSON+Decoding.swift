import Foundation

extension RESTJSON {
    /// The member names of a value object, one per type.
    static let valueTypeNames = [
        "nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue", "stringValue", "bytesValue",
        "referenceValue", "geoPointValue", "arrayValue", "mapValue",
    ]

    /// The members a document object may have.
    static let documentKeys: Set<String> = ["name", "fields", "createTime", "updateTime"]

    /// Reads one value object, such as `{"integerValue": "42"}`.
    ///
    /// `integerValue` also accepts a JSON integer, `doubleValue` the strings `NaN`, `Infinity`
    /// and `-Infinity`, `nullValue` the string `NULL_VALUE`, and `bytesValue` URL-safe and
    /// unpadded base64. Absent `values`, `fields`, `latitude` and `longitude` are empty or zero.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the offending field and key.
    public static func decodeValue(_ json: JSONValue) throws -> Value {
        try decodeValue(json, at: "")
    }

    /// Reads an object of field names to value objects, `{"a": {"stringValue": "x"}}`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the offending field and key.
    public static func decodeFields(_ json: JSONValue) throws -> MapValue {
        try decodeFields(json, at: "")
    }

    /// Reads the fields of a document object (`{"name": ..., "fields": {...}, ...}`, whose
    /// `name`, `createTime` and `updateTime` are ignored) or of a bare fields object
    /// (`{"a": {"stringValue": "x"}}`).
    ///
    /// An object is read as a document when all its keys are document keys, `name`,
    /// `createTime` and `updateTime` hold strings and `fields` holds an object that is not
    /// itself a value object; so `{"fields": {"stringValue": "x"}}` is one field named `fields`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the offending field and key.
    public static func decodeDocumentFields(_ json: JSONValue) throws -> MapValue {
        guard isDocumentObject(json) else { return try decodeFields(json) }
        return try decodeFields(json["fields"] ?? .object([]))
    }

    private static func isDocumentObject(_ json: JSONValue) -> Bool {
        guard case .object(let members) = json, !members.isEmpty else { return false }
        return members.allSatisfy { member in
            guard documentKeys.contains(member.key) else { return false }
            switch (member.key, member.value) {
            case ("fields", .object(let fields)):
                return !(fields.count == 1 && valueTypeNames.contains(fields[0].key))
            case ("fields", _): return false
            case (_, .string): return true
            default: return false
            }
        }
    }

    private static func decodeFields(_ json: JSONValue, at path: String) throws -> MapValue {
        guard case .object(let members) = json else {
            let owner = path.isEmpty ? "fields" : "fields of '\(path)'"
            throw FirestoreError.invalidArgument(
                "Invalid \(owner): expected an object of field names to values, got \(json.kindDescription)")
        }
        var fields = MapValue()
        for member in members {
            let fieldPath = path.isEmpty ? quoted(member.key) : path + "." + quoted(member.key)
            fields[member.key] = try decodeValue(member.value, at: fieldPath)
        }
        return fields
    }

    private static func decodeValue(_ json: JSONValue, at path: String) throws -> Value {
        guard case .object(let members) = json, members.count == 1, let member = members.first,
            valueTypeNames.contains(member.key)
        else {
            let got: String
            if case .object(let members) = json, !members.isEmpty {
                got = "keys " + members.map { "'\($0.key)'" }.joined(separator: ", ")
            } else {
                got = json.kindDescription
            }
            let expected = valueTypeNames.joined(separator: ", ")
            throw failure(at: path, "expected an object with exactly one of \(expected), got \(got)")
        }
        return try decodePayload(member.value, type: member.key, at: path)
    }

    private static func decodePayload(_ payload: JSONValue, type: String, at path: String) throws -> Value {
        func mismatch(_ expected: String? = nil) -> FirestoreError {
            let expected = expected ?? expectedPayload[type, default: "valid"]
            return failure(at: path, "\(type) must be \(expected), got \(shown(payload))")
        }
        switch (type, payload) {
        case ("nullValue", .null), ("nullValue", .string("NULL_VALUE")):
            return .null
        case ("booleanValue", .bool(let bool)):
            return .boolean(bool)
        case ("integerValue", .string(let text)), ("integerValue", .number(let text)):
            guard let integer = Int64(text), text.first != "+" else {
                throw mismatch()
            }
            return .integer(integer)
        case ("doubleValue", .number(let text)):
            guard let double = Double(text), double.isFinite else { throw mismatch("a number within the double range") }
            return .double(double)
        case ("doubleValue", .string("NaN")): return .double(.nan)
        case ("doubleValue", .string("Infinity")): return .double(.infinity)
        case ("doubleValue", .string("-Infinity")): return .double(-.infinity)
        case ("timestampValue", .string(let text)):
            return .timestamp(try located(path) { try Timestamp(rfc3339: text) })
        case ("stringValue", .string(let string)):
            return .string(string)
        case ("bytesValue", .string(let text)):
            guard let bytes = decodeBase64(text) else { throw mismatch() }
            return .bytes(bytes)
        case ("referenceValue", .string(let text)):
            return .reference(try located(path) { try DocumentName(resourceName: text) })
        case ("geoPointValue", .object):
            return .geoPoint(try decodeGeoPoint(payload, at: path))
        case ("arrayValue", .object):
            return .array(try decodeArray(payload, at: path))
        case ("mapValue", .object):
            try checkKeys(of: payload, allowed: ["fields"], type: type, at: path)
            return .map(try decodeFields(payload["fields"] ?? .object([]), at: path))
        default:
            throw mismatch()
        }
    }

    /// What each type's payload must be, for messages.
    private static let expectedPayload = [
        "nullValue": "null", "booleanValue": "true or false",
        "integerValue": "a 64-bit integer, as a string or a number",
        "doubleValue": "a number or one of \"NaN\", \"Infinity\", \"-Infinity\"",
        "timestampValue": "an RFC 3339 string", "stringValue": "a string", "bytesValue": "a base64 string",
        "referenceValue": "a document name string", "geoPointValue": "an object with latitude and longitude",
        "arrayValue": "an object with a values array", "mapValue": "an object with a fields object",
    ]

    private static func decodeArray(_ payload: JSONValue, at path: String) throws -> [Value] {
        try checkKeys(of: payload, allowed: ["values"], type: "arrayValue", at: path)
        switch payload["values"] {
        case nil: return []
        case .array(let elements)?:
            return try elements.enumerated().map { offset, element in
                try decodeValue(element, at: "\(path)[\(offset)]")
            }
        case let values?:
            throw failure(at: path, "arrayValue.values must be an array, got \(values.kindDescription)")
        }
    }

    private static func decodeGeoPoint(_ payload: JSONValue, at path: String) throws -> GeoPoint {
        try checkKeys(of: payload, allowed: ["latitude", "longitude"], type: "geoPointValue", at: path)
        func coordinate(_ key: String) throws -> Double {
            guard let json = payload[key] else { return 0 }
            guard case .number(let text) = json, let value = Double(text), value.isFinite else {
                throw failure(at: path, "geoPointValue.\(key) must be a number, got \(shown(json))")
            }
            return value
        }
        let (latitude, longitude) = (try coordinate("latitude"), try coordinate("longitude"))
        return try located(path) { try GeoPoint(latitude: latitude, longitude: longitude) }
    }

    private static func checkKeys(of payload: JSONValue, allowed: Set<String>, type: String, at path: String) throws {
        guard case .object(let members) = payload else { return }
        if let unknown = members.first(where: { !allowed.contains($0.key) }) {
            throw failure(at: path, "unknown key '\(unknown.key)' in \(type)")
        }
    }

    /// Standard or URL-safe base64, with or without padding.
    private static func decodeBase64(_ text: String) -> [UInt8]? {
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        let remainder = standard.utf8.count % 4
        if remainder != 0 { standard += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    /// Runs `body`, naming `path` in the message of a `FirestoreError` it throws.
    private static func located<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as FirestoreError { throw failure(at: path, error.message) }
    }

    /// A payload as messages show it: scalars as JSON text (shortened), containers by kind.
    private static func shown(_ json: JSONValue) -> String {
        switch json {
        case .array, .object: return json.kindDescription
        default:
            let text = json.serialized()
            return text.count > 80 ? text.prefix(77) + "..." : text
        }
    }

    private static func quoted(_ key: String) -> String {
        FieldPath.quotedIfNeeded(key)
    }

    private static func failure(at path: String, _ reason: String) -> FirestoreError {
        FirestoreError.invalidArgument(
            path.isEmpty ? "Invalid value: \(reason)" : "Invalid value for field '\(path)': \(reason)")
    }
}
