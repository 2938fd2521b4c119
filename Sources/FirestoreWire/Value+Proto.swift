package import DocumentModel
import Foundation
package import FirestoreProto
import SwiftProtobuf

extension Value {
    /// The value of a `google.firestore.v1.Value` message.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for a message with no value type, the pipeline
    ///   value types (which documents cannot hold), a malformed reference, timestamp or geo point.
    package init(proto: Google_Firestore_V1_Value) throws {
        switch proto.valueType {
        case nil:
            throw FirestoreError.invalidArgument("Cannot convert firestore.v1.Value with type unset.")
        case .nullValue: self = .null
        case .booleanValue(let bool): self = .boolean(bool)
        case .integerValue(let integer): self = .integer(integer)
        case .doubleValue(let double): self = .double(double)
        case .timestampValue(let timestamp): self = .timestamp(try Timestamp(proto: timestamp))
        case .stringValue(let string): self = .string(string)
        case .bytesValue(let bytes): self = .bytes([UInt8](bytes))
        case .referenceValue(let name): self = .reference(try DocumentName(resourceName: name))
        case .geoPointValue(let point):
            self = .geoPoint(try GeoPoint(latitude: point.latitude, longitude: point.longitude))
        case .arrayValue(let array): self = .array(try array.values.map(Value.init(proto:)))
        case .mapValue(let map): self = .map(try MapValue(proto: map.fields))
        case .fieldReferenceValue, .variableReferenceValue, .functionValue, .pipelineValue:
            throw FirestoreError.invalidArgument("Pipeline expression values cannot be stored in documents")
        }
    }

    /// The value as a `google.firestore.v1.Value` message.
    package var proto: Google_Firestore_V1_Value {
        var message = Google_Firestore_V1_Value()
        switch self {
        case .null: message.nullValue = .nullValue
        case .boolean(let bool): message.booleanValue = bool
        case .integer(let integer): message.integerValue = integer
        case .double(let double): message.doubleValue = double
        case .timestamp(let timestamp): message.timestampValue = timestamp.proto
        case .string(let string): message.stringValue = string
        case .bytes(let bytes): message.bytesValue = Data(bytes)
        case .reference(let name): message.referenceValue = name.resourceName
        case .geoPoint(let point):
            var latLng = Google_Type_LatLng()
            latLng.latitude = point.latitude
            latLng.longitude = point.longitude
            message.geoPointValue = latLng
        case .array(let elements):
            var array = Google_Firestore_V1_ArrayValue()
            array.values = elements.map(\.proto)
            message.arrayValue = array
        case .map(let fields):
            var map = Google_Firestore_V1_MapValue()
            map.fields = fields.protoFields
            message.mapValue = map
        }
        return message
    }
}

extension MapValue {
    /// The fields of a proto map (`map<string, Value>`).
    package init(proto fields: [String: Google_Firestore_V1_Value]) throws {
        self.init(uniqueKeysWithValues: try fields.map { ($0.key, try Value(proto: $0.value)) })
    }

    /// The fields as a proto map.
    package var protoFields: [String: Google_Firestore_V1_Value] {
        var result: [String: Google_Firestore_V1_Value] = [:]
        result.reserveCapacity(count)
        for entry in self { result[entry.key] = entry.value.proto }
        return result
    }
}
