/// Firestore's storage-size accounting, which its limits (a 1 MiB document) are stated in.
///
/// From Firestore's "Storage size calculations":
/// - string: UTF-8 bytes + 1; boolean and null: 1; integer, double and timestamp: 8;
///   geo point: 16; bytes: their length; reference: the referenced document name's size;
/// - array: the sum of its elements; map: the sum of its keys (as strings) and values; an empty
///   array or map counts 1 byte (measured on Google's emulator; the published table omits it);
/// - document name: the sum of its ids (as strings) + 16;
/// - document: its name + its top-level field names and values + 32.
package enum StorageSize {
    /// The largest document Firestore stores: 1 MiB.
    package static let maxDocumentBytes = 1_048_576
    /// The largest single field value: 1 MiB - 89 bytes.
    package static let maxFieldValueBytes = 1_048_487

    /// The size of a string.
    package static func string(_ text: String) -> Int { text.utf8.count + 1 }

    /// The size of a document name.
    package static func documentName(_ path: ResourcePath) -> Int {
        path.segments.reduce(16) { $0 + string($1) }
    }

    /// The size of a value.
    package static func value(_ value: Value) -> Int {
        switch value {
        case .null, .boolean: 1
        case .integer, .double, .timestamp: 8
        case .geoPoint: 16
        case .string(let text): string(text)
        case .bytes(let bytes): bytes.count
        case .reference(let name): documentName(name.path)
        case .array(let elements): elements.isEmpty ? 1 : elements.reduce(0) { $0 + self.value($1) }
        case .map(let map): map.isEmpty ? 1 : fields(map)
        }
    }

    /// The size of a map's (or a document's) fields.
    package static func fields(_ map: MapValue) -> Int {
        map.entries.reduce(0) { $0 + string($1.key) + value($1.value) }
    }

    /// The size of a whole document.
    package static func document(path: ResourcePath, fields map: MapValue) -> Int {
        documentName(path) + fields(map) + 32
    }
}
