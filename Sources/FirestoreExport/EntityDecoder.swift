import DocumentModel

/// Decodes the entities of an export (see `EntityEncoder`) into documents of one database.
///
/// The key's path gives the document's name in `database`, whatever project the export came
/// from. A reference keeps the project its app id names (`dev~demo-app` is `demo-app`), also
/// after an import into another project: Google's emulator, seeding an export into every
/// project, keeps them so too.
///
/// Every problem is an `ExportError` whose offset is the byte in the entity where it is.
struct EntityDecoder {
    /// The database documents are decoded into.
    let database: DatabaseID

    /// The deepest nesting of maps accepted (Firestore allows 20 levels; deeper input is refused
    /// rather than risking the stack).
    static let maxDepth = 100

    /// The document an entity holds, with the export's times (none: `createTime` and
    /// `updateTime` are left at `Timestamp.min`; a commit sets them).
    func decode(_ bytes: [UInt8]) throws -> Document {
        var reader = ProtoReader(bytes)
        var path: [String]?
        var fields = PropertyCollector()
        while let tag = try reader.nextTag() {
            switch tag.field {
            case EntityFields.Entity.key:
                try reader.expect(tag, .lengthDelimited, in: "the entity")
                var key = try reader.nested()
                path = try decodeKey(&key)
            case EntityFields.Entity.property, EntityFields.Entity.rawProperty:
                try reader.expect(tag, .lengthDelimited, in: "the entity")
                var property = try reader.nested()
                try decodeProperty(&property, into: &fields, depth: 0)
            case EntityFields.Entity.entityGroup:
                try reader.expect(tag, .lengthDelimited, in: "the entity")
                _ = try reader.lengthDelimited()
            default:
                throw reader.unknown(tag, in: "the entity")
            }
        }
        guard let path else { throw ExportError(.malformed, "an entity without a key", offset: 0) }
        let name: DocumentName
        do {
            name = try DocumentName(database, ResourcePath(segments: path))
        } catch let error as FirestoreError {
            throw ExportError(
                .malformed, "the key '\(path.joined(separator: "/"))' names no document: \(error.message)", offset: 0)
        }
        return Document(name: name, fields: fields.map, createTime: .min, updateTime: .min)
    }

    /// A key's path segments (its app, the exporting project, is not needed).
    private func decodeKey(_ reader: inout ProtoReader) throws -> [String] {
        var segments: [String] = []
        while let tag = try reader.nextTag() {
            switch tag.field {
            case EntityFields.Key.app:
                try reader.expect(tag, .lengthDelimited, in: "the key")
                _ = try reader.string()
            case EntityFields.Key.path:
                try reader.expect(tag, .lengthDelimited, in: "the key")
                var path = try reader.nested()
                while let element = try path.nextTag() {
                    guard element.field == EntityFields.Path.element, element.type == .startGroup else {
                        throw path.unknown(element, in: "the key's path")
                    }
                    segments += try decodeElement(
                        &path, group: EntityFields.Path.element, type: EntityFields.Path.type,
                        id: EntityFields.Path.id, name: EntityFields.Path.name)
                }
            case EntityFields.Key.namespace, EntityFields.Key.databaseID:
                try reader.expect(tag, .lengthDelimited, in: "the key")
                _ = try reader.string()
            default:
                throw reader.unknown(tag, in: "the key")
            }
        }
        return segments
    }

    /// One path element's collection id and document id (a numeric id as `__id<n>__`), up to
    /// the group's end tag.
    private func decodeElement(
        _ reader: inout ProtoReader, group: Int, type typeField: Int, id idField: Int, name nameField: Int
    ) throws -> [String] {
        var collection: String?
        var id: String?
        let start = reader.position
        while let tag = try reader.nextTag() {
            switch (tag.field, tag.type) {
            case (group, .endGroup):
                guard let collection, let id else {
                    throw ExportError(.malformed, "a path element without a kind or an id", offset: start)
                }
                return [collection, id]
            case (typeField, .lengthDelimited): collection = try reader.string()
            case (idField, .varint): id = ResourcePath.numericIDSpelling(Int64(bitPattern: try reader.varint()))
            case (nameField, .lengthDelimited): id = try reader.string()
            default: throw reader.unknown(tag, in: "a path element")
            }
        }
        throw ExportError(.truncated, "a path element without its end", offset: start)
    }

    /// One property, added to `fields`.
    private func decodeProperty(
        _ reader: inout ProtoReader, into fields: inout PropertyCollector, depth: Int
    ) throws {
        let start = reader.position
        var meaning = EntityFields.Meaning.none
        var name: String?
        var multiple = false
        var valueReader: ProtoReader?
        while let tag = try reader.nextTag() {
            switch (tag.field, tag.type) {
            case (EntityFields.Property.meaning, .varint): meaning = try reader.varint()
            case (EntityFields.Property.name, .lengthDelimited): name = try reader.string()
            case (EntityFields.Property.multiple, .varint): multiple = try reader.varint() != 0
            case (EntityFields.Property.value, .lengthDelimited): valueReader = try reader.nested()
            case (EntityFields.Property.meaningURI, .lengthDelimited), (EntityFields.Property.locale, .lengthDelimited),
                (EntityFields.Property.searchable, .varint), (EntityFields.Property.computed, .varint),
                (EntityFields.Property.ftsTokenization, .varint):
                try reader.skip(tag)
            default: throw reader.unknown(tag, in: "a property")
            }
        }
        guard let name, var valueReader else {
            throw ExportError(.malformed, "a property without a name or a value", offset: start)
        }
        let value = try decodeValue(&valueReader, meaning: meaning, depth: depth)
        try fields.add(name, value, meaning: meaning, multiple: multiple, at: start)
    }

    /// A `PropertyValue` with its property's meaning.
    private func decodeValue(_ reader: inout ProtoReader, meaning: UInt64, depth: Int) throws -> Value {
        let start = reader.position
        var value: Value?
        func set(_ decoded: Value) throws {
            guard value == nil else { throw ExportError(.malformed, "a property value with two values", offset: start) }
            value = decoded
        }
        while let tag = try reader.nextTag() {
            switch (tag.field, tag.type) {
            case (EntityFields.Value.int64, .varint):
                let number = Int64(bitPattern: try reader.varint())
                if meaning == EntityFields.Meaning.when {
                    try set(.timestamp(try timestamp(number, at: tag.offset)))
                } else {
                    try set(.integer(number))
                }
            case (EntityFields.Value.boolean, .varint): try set(.boolean(try reader.varint() != 0))
            case (EntityFields.Value.double, .fixed64): try set(.double(Double(bitPattern: try reader.fixed64())))
            case (EntityFields.Value.string, .lengthDelimited):
                switch meaning {
                case EntityFields.Meaning.blob, EntityFields.Meaning.byteString: try set(.bytes(try reader.data()))
                case EntityFields.Meaning.entity:
                    guard depth < Self.maxDepth else {
                        throw ExportError(
                            .malformed, "maps nested deeper than \(Self.maxDepth) levels", offset: tag.offset)
                    }
                    var entity = try reader.nested()
                    try set(.map(try decodeMap(&entity, depth: depth + 1).map))
                default: try set(.string(try reader.string()))
                }
            case (EntityFields.Value.point, .startGroup): try set(.geoPoint(try decodePoint(&reader, at: tag.offset)))
            case (EntityFields.Value.reference, .startGroup): try set(try decodeReference(&reader))
            default: throw reader.unknown(tag, in: "a property value")
            }
        }
        if let value { return value }
        return meaning == EntityFields.Meaning.emptyList ? .array([]) : .null
    }

    private func timestamp(_ microseconds: Int64, at offset: Int) throws -> Timestamp {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds + 1) / 1_000_000 - 1
        guard (Timestamp.minSeconds...Timestamp.maxSeconds).contains(seconds) else {
            throw ExportError(
                .malformed, "a timestamp of \(microseconds) µs is outside years 1 to 9999", offset: offset)
        }
        return Timestamp(microsecondsSinceEpoch: microseconds)
    }

    private func decodePoint(_ reader: inout ProtoReader, at offset: Int) throws -> GeoPoint {
        var latitude: Double?
        var longitude: Double?
        while let tag = try reader.nextTag() {
            switch (tag.field, tag.type) {
            case (EntityFields.Value.pointX, .fixed64): latitude = Double(bitPattern: try reader.fixed64())
            case (EntityFields.Value.pointY, .fixed64): longitude = Double(bitPattern: try reader.fixed64())
            case (EntityFields.Value.point, .endGroup):
                guard let latitude, let longitude else { break }
                do {
                    return try GeoPoint(latitude: latitude, longitude: longitude)
                } catch let error as FirestoreError {
                    throw ExportError(.malformed, error.message, offset: offset)
                }
            default: throw reader.unknown(tag, in: "a point")
            }
        }
        throw ExportError(.malformed, "a point without both coordinates or its end", offset: offset)
    }

    private func decodeReference(_ reader: inout ProtoReader) throws -> Value {
        let start = reader.position
        var app = ""
        var database = DatabaseID.defaultDatabase
        var segments: [String] = []
        while let tag = try reader.nextTag() {
            switch (tag.field, tag.type) {
            case (EntityFields.Value.referenceApp, .lengthDelimited): app = try reader.string()
            case (EntityFields.Value.referenceNamespace, .lengthDelimited): _ = try reader.string()
            case (EntityFields.Value.referenceDatabaseID, .lengthDelimited): database = try reader.string()
            case (EntityFields.Value.referenceElement, .startGroup):
                segments += try decodeElement(
                    &reader, group: EntityFields.Value.referenceElement, type: EntityFields.Value.referenceType,
                    id: EntityFields.Value.referenceID, name: EntityFields.Value.referenceName)
            case (EntityFields.Value.reference, .endGroup):
                do {
                    let target = try DatabaseID(project: EntityFields.project(ofApp: app), database: database)
                    return .reference(try DocumentName(target, ResourcePath(segments: segments)))
                } catch let error as FirestoreError {
                    throw ExportError(.malformed, "a reference to no document: \(error.message)", offset: start)
                }
            default: throw reader.unknown(tag, in: "a reference")
            }
        }
        throw ExportError(.truncated, "a reference without its end", offset: start)
    }

    /// A map: a nested entity's properties (its key and entity group are empty).
    private func decodeMap(_ reader: inout ProtoReader, depth: Int) throws -> PropertyCollector {
        var fields = PropertyCollector()
        while let tag = try reader.nextTag() {
            switch (tag.field, tag.type) {
            case (EntityFields.Entity.key, .lengthDelimited), (EntityFields.Entity.entityGroup, .lengthDelimited):
                _ = try reader.lengthDelimited()
            case (EntityFields.Entity.property, .lengthDelimited), (EntityFields.Entity.rawProperty, .lengthDelimited):
                var property = try reader.nested()
                try decodeProperty(&property, into: &fields, depth: depth)
            default:
                throw reader.unknown(tag, in: "a map")
            }
        }
        return fields
    }
}
