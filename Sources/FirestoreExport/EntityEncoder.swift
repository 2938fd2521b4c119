import DocumentModel

/// Encodes a document as Firestore's exports do: an `EntityProto` whose key is the document's
/// path (collection ids as kinds, numeric ids `__id<n>__` as integer ids, other ids as names),
/// whose properties are its fields, and whose entity group is the path's first element.
///
/// Fields are written in Firestore's map order; empty arrays go in `property` (field 14), every
/// other field in `raw_property` (15), as Google's emulator writes them.
///
/// ```swift
/// let bytes = try EntityEncoder.encode(document)
/// ```
enum EntityEncoder {
    /// The entity of `document`.
    ///
    /// - Throws: `ExportError.malformed` for a value Firestore cannot store (an array in an array).
    static func encode(_ document: Document) throws -> [UInt8] {
        var writer = ProtoWriter(capacity: 256)
        let app = "dev~\(document.name.databaseID.project)"
        writer.message(EntityFields.Entity.key) { key in
            key.string(EntityFields.Key.app, app)
            key.message(EntityFields.Key.path) { path in writeElements(document.name.path.segments, to: &path) }
            if document.name.databaseID.database != DatabaseID.defaultDatabase {
                key.string(EntityFields.Key.databaseID, document.name.databaseID.database)
            }
        }
        try writeProperties(document.fields, to: &writer)
        writer.message(EntityFields.Entity.entityGroup) { path in
            writeElements(Array(document.name.path.segments.prefix(2)), to: &path)
        }
        return writer.bytes
    }

    private static func writeElements(_ segments: [String], to writer: inout ProtoWriter) {
        for index in stride(from: 0, to: segments.count - 1, by: 2) {
            writer.group(EntityFields.Path.element) { element in
                element.string(EntityFields.Path.type, segments[index])
                writeID(segments[index + 1], id: EntityFields.Path.id, name: EntityFields.Path.name, to: &element)
            }
        }
    }

    private static func writeID(_ id: String, id idField: Int, name nameField: Int, to writer: inout ProtoWriter) {
        if let number = ResourcePath.numericID(id) {
            writer.int64(idField, number)
        } else {
            writer.string(nameField, id)
        }
    }

    /// A map's fields as properties: empty arrays first (field 14), then the rest (field 15).
    private static func writeProperties(_ fields: MapValue, to writer: inout ProtoWriter) throws {
        for entry in fields where entry.value.arrayValue?.isEmpty == true {
            writer.message(EntityFields.Entity.property) { property in
                property.int64(EntityFields.Property.meaning, Int64(EntityFields.Meaning.emptyList))
                property.string(EntityFields.Property.name, entry.key)
                property.bool(EntityFields.Property.multiple, false)
                property.bytes(EntityFields.Property.value, [])
            }
        }
        for entry in fields {
            switch entry.value {
            case .array(let elements) where !elements.isEmpty:
                for element in elements {
                    if case .array = element {
                        throw ExportError(.malformed, "field '\(entry.key)' holds an array in an array")
                    }
                    try writeProperty(entry.key, element, multiple: true, to: &writer)
                }
            case .array:
                continue
            case .map(let map) where map.isVector:
                for element in map.vectorElements ?? [] {
                    writer.message(EntityFields.Entity.rawProperty) { property in
                        property.int64(EntityFields.Property.meaning, Int64(EntityFields.Meaning.vector))
                        property.string(EntityFields.Property.name, entry.key)
                        property.bool(EntityFields.Property.multiple, true)
                        property.message(EntityFields.Property.value) { $0.double(EntityFields.Value.double, element) }
                    }
                }
            default:
                try writeProperty(entry.key, entry.value, multiple: false, to: &writer)
            }
        }
    }

    private static func writeProperty(_ name: String, _ value: Value, multiple: Bool, to writer: inout ProtoWriter)
        throws
    {
        let meaning = meaning(of: value)
        var encodedValue = ProtoWriter()
        try writeValue(value, to: &encodedValue)
        writer.message(EntityFields.Entity.rawProperty) { property in
            if meaning != EntityFields.Meaning.none { property.int64(EntityFields.Property.meaning, Int64(meaning)) }
            property.string(EntityFields.Property.name, name)
            property.bool(EntityFields.Property.multiple, multiple)
            property.bytes(EntityFields.Property.value, encodedValue.bytes)
        }
    }

    private static func meaning(of value: Value) -> UInt64 {
        switch value {
        case .timestamp: EntityFields.Meaning.when
        case .geoPoint: EntityFields.Meaning.point
        case .bytes: EntityFields.Meaning.blob
        case .map: EntityFields.Meaning.entity
        default: EntityFields.Meaning.none
        }
    }

    /// A `PropertyValue`'s content.
    private static func writeValue(_ value: Value, to writer: inout ProtoWriter) throws {
        switch value {
        case .null: break
        case .boolean(let flag): writer.bool(EntityFields.Value.boolean, flag)
        case .integer(let number): writer.int64(EntityFields.Value.int64, number)
        case .double(let number): writer.double(EntityFields.Value.double, number)
        case .timestamp(let time): writer.int64(EntityFields.Value.int64, time.microsecondsSinceEpoch)
        case .string(let text): writer.string(EntityFields.Value.string, text)
        case .bytes(let bytes): writer.bytes(EntityFields.Value.string, bytes)
        case .geoPoint(let point):
            writer.group(EntityFields.Value.point) { group in
                group.double(EntityFields.Value.pointX, point.latitude)
                group.double(EntityFields.Value.pointY, point.longitude)
            }
        case .reference(let name):
            writer.group(EntityFields.Value.reference) { group in
                group.string(EntityFields.Value.referenceApp, "dev~\(name.databaseID.project)")
                let segments = name.path.segments
                for index in stride(from: 0, to: segments.count - 1, by: 2) {
                    group.group(EntityFields.Value.referenceElement) { element in
                        element.string(EntityFields.Value.referenceType, segments[index])
                        writeID(
                            segments[index + 1], id: EntityFields.Value.referenceID,
                            name: EntityFields.Value.referenceName, to: &element)
                    }
                }
                if name.databaseID.database != DatabaseID.defaultDatabase {
                    group.string(EntityFields.Value.referenceDatabaseID, name.databaseID.database)
                }
            }
        case .map(let map):
            var entity = ProtoWriter(capacity: 64)
            entity.message(EntityFields.Entity.key) { key in
                key.string(EntityFields.Key.app, "")
                key.bytes(EntityFields.Key.path, [])
            }
            try writeProperties(map, to: &entity)
            entity.bytes(EntityFields.Entity.entityGroup, [])
            writer.bytes(EntityFields.Value.string, entity.bytes)
        case .array:
            throw ExportError(.malformed, "an array in an array")
        }
    }
}
