import DocumentModel

extension RValue {
    /// The rules value of a stored Firestore value: references become paths
    /// (`/databases/(default)/documents/users/alice`), maps stay lazily converted.
    init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .boolean(let value): self = .bool(value)
        case .integer(let value): self = .int(value)
        case .double(let value): self = .float(value)
        case .timestamp(let value): self = .timestamp(value)
        case .string(let value): self = .string(value)
        case .bytes(let value): self = .bytes(value)
        case .reference(let name): self = .path(RPath(documentName: name))
        case .geoPoint(let point): self = .latlng(RLatLng(latitude: point.latitude, longitude: point.longitude))
        case .array(let elements): self = .list(elements.map(RValue.init))
        case .map(let fields): self = .map(RMap(fields: fields))
        }
    }
}

extension RPath {
    /// `/databases/{database}/documents/{path}`.
    init(documentName name: DocumentName) {
        self.init(database: name.databaseID, path: name.path)
    }

    /// `/databases/{database}/documents/{path}` for any path (a collection too).
    init(database: DatabaseID, path: ResourcePath) {
        var segments = ["databases", database.database, "documents"]
        segments.append(contentsOf: path.segments)
        self.init(segments: segments)
    }
}
