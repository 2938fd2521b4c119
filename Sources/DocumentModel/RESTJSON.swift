import Foundation

/// Firestore's REST (proto3 JSON) form of values and documents.
///
/// A value is an object with one member named after its type: `{"nullValue": null}`,
/// `{"booleanValue": true}`, `{"integerValue": "123"}` (an int64 as a string),
/// `{"doubleValue": 1.5}` (`"NaN"`, `"Infinity"`, `"-Infinity"` as strings),
/// `{"timestampValue": "2024-01-01T00:00:00.123456Z"}`, `{"stringValue": "x"}`,
/// `{"bytesValue": "<base64>"}`, `{"referenceValue": "projects/p/databases/(default)/documents/a/b"}`,
/// `{"geoPointValue": {"latitude": 1, "longitude": 2}}`, `{"arrayValue": {"values": [...]}}` and
/// `{"mapValue": {"fields": {...}}}`. A document is
/// `{"name": ..., "fields": {...}, "createTime": ..., "updateTime": ...}`.
///
/// Encoding is stable: members are sorted by key (fields by their UTF-8 bytes), empty `fields`,
/// `values` are left out as Firestore leaves them out, and every `Int64` and `Double` round-trips.
///
/// ```swift
/// let fields = try RESTJSON.decodeDocumentFields(JSONValue(parsing: #"{"age": {"integerValue": "30"}}"#))
/// print(RESTJSON.encode(document).serialized(pretty: true))
/// ```
public enum RESTJSON {
    /// The JSON form of one value.
    public static func encode(_ value: Value) -> JSONValue {
        let payload: JSONValue =
            switch value {
            case .null: .null
            case .boolean(let bool): .bool(bool)
            case .integer(let integer): .string(String(integer))
            case .double(let double): encode(double)
            case .timestamp(let timestamp): .string(timestamp.description)
            case .string(let string): .string(string)
            case .bytes(let bytes): .string(Data(bytes).base64EncodedString())
            case .reference(let name): .string(name.resourceName)
            case .geoPoint(let point):
                .object([
                    JSONValue.Member("latitude", encode(point.latitude)),
                    JSONValue.Member("longitude", encode(point.longitude)),
                ])
            case .array(let elements):
                .object(elements.isEmpty ? [] : [JSONValue.Member("values", .array(elements.map(encode)))])
            case .map(let fields):
                .object(fields.isEmpty ? [] : [JSONValue.Member("fields", encode(fields: fields))])
            }
        return .object([JSONValue.Member(value.typeName, payload)])
    }

    /// The JSON object of field names to values, in field order.
    public static func encode(fields: MapValue) -> JSONValue {
        .object(fields.map { JSONValue.Member($0.key, encode($0.value)) })
    }

    /// The JSON form of a document, members sorted: `createTime`, `fields` (left out when there
    /// are none), `name`, `updateTime`.
    public static func encode(_ document: Document) -> JSONValue {
        var members = [JSONValue.Member("createTime", .string(document.createTime.description))]
        if !document.fields.isEmpty {
            members.append(JSONValue.Member("fields", encode(fields: document.fields)))
        }
        members.append(JSONValue.Member("name", .string(document.name.resourceName)))
        members.append(JSONValue.Member("updateTime", .string(document.updateTime.description)))
        return .object(members)
    }

    /// A double as a JSON number, or as the string `NaN`, `Infinity` or `-Infinity`.
    private static func encode(_ double: Double) -> JSONValue {
        if double.isNaN { return .string("NaN") }
        if double.isInfinite { return .string(double < 0 ? "-Infinity" : "Infinity") }
        return JSONValue(double)
    }
}
