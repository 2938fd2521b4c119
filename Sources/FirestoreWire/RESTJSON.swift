package import DocumentModel
package import FirestoreProto
import SwiftProtobuf

/// Firestore's REST JSON of values and documents: the proto3 JSON mapping of
/// `google.firestore.v1.Value` and `Document`, read and written by swift-protobuf and converted
/// with this target's proto conversions. For the CLI, the console and the tools that read
/// recorded cases; REST request bodies are whole messages (`EmulatorServer/REST/ProtoJSON`).
///
/// A value is an object with one member named after its type: `{"nullValue": null}`,
/// `{"integerValue": "123"}` (an int64 as a string; a JSON number is accepted too),
/// `{"doubleValue": 1.5}` (`"NaN"`, `"Infinity"`, `"-Infinity"` as strings),
/// `{"timestampValue": "2024-01-01T00:00:00.123456Z"}`, `{"bytesValue": "<base64>"}`,
/// `{"geoPointValue": {"latitude": 1, "longitude": 2}}`, `{"arrayValue": {"values": [...]}}`,
/// `{"mapValue": {"fields": {...}}}` and so on. A document is
/// `{"createTime": ..., "fields": {...}, "name": ..., "updateTime": ...}`.
///
/// Encoding is stable: every object's members are sorted by the UTF-8 bytes of their keys, and
/// empty `fields` and `values` are left out, as Firestore leaves them out.
///
/// ```swift
/// let fields = try RESTJSON.decodeDocumentFields(JSONValue(parsing: #"{"age": {"integerValue": "30"}}"#))
/// print(RESTJSON.encode(document).serialized(pretty: true))
/// ```
package enum RESTJSON {
    /// The JSON form of one value.
    package static func encode(_ value: Value) -> JSONValue {
        json(of: value.proto)
    }

    /// The JSON object of field names to values.
    package static func encode(fields: MapValue) -> JSONValue {
        var map = Google_Firestore_V1_MapValue()
        map.fields = fields.protoFields
        return json(of: map)["fields"] ?? .object([])
    }

    /// The JSON form of a document: `createTime`, `fields` (left out when there are none),
    /// `name`, `updateTime`.
    package static func encode(_ document: Document) -> JSONValue {
        json(of: document.proto())
    }

    /// Reads one value object, such as `{"integerValue": "42"}`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` saying what is wrong with it.
    package static func decodeValue(_ json: JSONValue) throws -> Value {
        try decodeValue(json, field: nil)
    }

    /// Reads an object of field names to value objects, `{"a": {"stringValue": "x"}}`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the offending field.
    package static func decodeFields(_ json: JSONValue) throws -> MapValue {
        guard case .object(let members) = json else {
            throw FirestoreError.invalidArgument(
                "Invalid fields: expected an object of field names to values, got \(json.kindDescription)")
        }
        var fields = MapValue()
        for member in members {
            fields[member.key] = try decodeValue(member.value, field: member.key)
        }
        return fields
    }

    /// Reads the fields of a document object (`{"name": ..., "fields": {...}, ...}`, whose
    /// `name`, `createTime` and `updateTime` are ignored) or of a bare fields object
    /// (`{"a": {"stringValue": "x"}}`).
    ///
    /// An object is read as a document when all its keys are document keys, `name`,
    /// `createTime` and `updateTime` hold strings and `fields` holds an object that is not
    /// itself a value object; so `{"fields": {"stringValue": "x"}}` is one field named `fields`.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the offending field.
    package static func decodeDocumentFields(_ json: JSONValue) throws -> MapValue {
        guard isDocumentObject(json) else { return try decodeFields(json) }
        return try decodeFields(json["fields"] ?? .object([]))
    }

    /// The members of a document object.
    private static let documentKeys: Set<String> = ["name", "fields", "createTime", "updateTime"]

    private static func isDocumentObject(_ json: JSONValue) -> Bool {
        guard case .object(let members) = json, !members.isEmpty else { return false }
        return members.allSatisfy { member in
            guard documentKeys.contains(member.key) else { return false }
            switch (member.key, member.value) {
            case ("fields", .object(let fields)):
                return !(fields.count == 1 && Google_Firestore_V1_Value.isMemberName(fields[0].key))
            case ("fields", _): return false
            case (_, .string): return true
            default: return false
            }
        }
    }

    /// A value object through swift-protobuf, with `field` (a top-level field name) in messages.
    private static func decodeValue(_ json: JSONValue, field: String?) throws -> Value {
        let subject = field.map { "Invalid value for field '\(FieldPath.quotedIfNeeded($0))'" } ?? "Invalid value"
        let message: Google_Firestore_V1_Value
        do {
            message = try Google_Firestore_V1_Value(jsonUTF8Bytes: Array(json.serialized().utf8))
        } catch {
            throw FirestoreError.invalidArgument("\(subject): \(reason(error))")
        }
        do {
            return try Value(proto: message)
        } catch let error as FirestoreError {
            throw FirestoreError.invalidArgument("\(subject): \(error.message)")
        }
    }

    /// What a swift-protobuf JSON error says is wrong, in words.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? JSONDecodingError else { return "\(error)" }
        switch error {
        case .unknownField(let name): return "unknown key '\(name)' (a value object has one member named after its type)"
        case .numberRange: return "a number is out of range for its type"
        case .malformedNumber, .leadingZero: return "a number is malformed"
        case .malformedString, .invalidUTF8: return "a string is malformed (bytes must be base64)"
        case .malformedTimestamp: return "a timestamp is not RFC 3339 within years 1 to 9999"
        case .unrecognizedEnumValue: return "nullValue must be null"
        case .conflictingOneOf: return "a value object must have exactly one type member"
        case .schemaMismatch, .malformedBool, .illegalNull, .malformedMap, .unquotedMapKey:
            return "a member does not hold the JSON type its type name requires"
        case .messageDepthLimit: return "values are nested too deeply"
        default: return "\(error)"
        }
    }

    /// The message's JSON as a `JSONValue`, every object's members sorted by key.
    private static func json(of message: some SwiftProtobuf.Message) -> JSONValue {
        // Firestore's messages always have a JSON form; JSONWriter reads back what it writes.
        let bytes: [UInt8]? = try? message.jsonUTF8Bytes()
        guard let bytes, let json = try? JSONValue(parsing: bytes) else {
            preconditionFailure("swift-protobuf wrote JSON that cannot be read back")
        }
        return sorted(json)
    }

    private static func sorted(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let members):
            let sortedMembers = members.map { member in JSONValue.Member(member.key, sorted(member.value)) }
            return .object(
                sortedMembers.sorted { (left: JSONValue.Member, right: JSONValue.Member) in
                    left.key.utf8.lexicographicallyPrecedes(right.key.utf8)
                })
        case .array(let elements):
            return .array(elements.map(sorted))
        default:
            return json
        }
    }
}

extension Google_Firestore_V1_Value {
    /// Whether `key` names one of the value types a document can hold (`integerValue`, ...).
    fileprivate static func isMemberName(_ key: String) -> Bool {
        [
            "nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue", "stringValue", "bytesValue",
            "referenceValue", "geoPointValue", "arrayValue", "mapValue",
        ].contains(key)
    }
}
