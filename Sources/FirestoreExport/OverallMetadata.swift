import Foundation

/// An export's `NAME.overall_export_metadata`: a file in LevelDB's log format holding a marker
/// record (the single byte `0x33`) and a message listing, per exported kind selection, the path
/// of its `.export_metadata` file (relative to this file's folder), its entity count and the
/// bytes of its output files. An export of nothing lists no kinds and has no other files.
struct OverallMetadata: Equatable {
    /// One kind selection's entry (Firestore writes one: all namespaces, all kinds).
    struct Kinds: Equatable {
        var metadataPath: String
        var entityCount: Int
        var byteCount: Int
    }

    var kinds: [Kinds]

    /// The marker record before the message.
    static let marker: [UInt8] = [0x33]
    /// The path of the `.export_metadata` of all namespaces and all kinds, relative to the export folder.
    static let allKindsMetadataPath = "all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata"

    private enum Field {
        static let kinds = 1
        static let selection = 1
        static let path = 2
        static let count = 3
        static let bytes = 4
    }

    /// Reads the file at `path` (`name` is how errors name it).
    static func read(path: String, name: String) throws -> OverallMetadata {
        var log = try LogReader(path: path, name: name)
        var kinds: [Kinds]?
        while let record = try log.next() {
            if record.bytes == marker, kinds == nil { continue }
            guard kinds == nil else {
                throw ExportError(.malformed, "more than one metadata record", file: name, offset: record.offset)
            }
            do {
                kinds = try decode(record.bytes)
            } catch let error as ExportError {
                throw error.located(in: name, at: record.offset)
            }
        }
        guard let kinds else {
            throw ExportError(.truncated, "no metadata record", file: name, offset: log.offset)
        }
        return OverallMetadata(kinds: kinds)
    }

    private static func decode(_ bytes: [UInt8]) throws -> [Kinds] {
        var reader = ProtoReader(bytes)
        var kinds: [Kinds] = []
        while let tag = try reader.nextTag() {
            guard tag.field == Field.kinds, tag.type == .lengthDelimited else {
                throw reader.unknown(tag, in: "the overall export metadata")
            }
            var entry = try reader.nested()
            var kind = Kinds(metadataPath: "", entityCount: 0, byteCount: 0)
            while let field = try entry.nextTag() {
                switch (field.field, field.type) {
                case (Field.selection, .lengthDelimited): _ = try entry.lengthDelimited()
                case (Field.path, .lengthDelimited): kind.metadataPath = try entry.string()
                case (Field.count, .varint): kind.entityCount = Int(truncatingIfNeeded: try entry.varint())
                case (Field.bytes, .varint): kind.byteCount = Int(truncatingIfNeeded: try entry.varint())
                default: throw entry.unknown(field, in: "the overall export metadata")
                }
            }
            kinds.append(kind)
        }
        return kinds
    }

    /// Writes the file at `path`.
    func write(path: String) throws {
        let log = try LogWriter(path: path)
        try log.append(Self.marker)
        var writer = ProtoWriter()
        for kind in kinds {
            writer.message(Field.kinds) { entry in
                // All namespaces, all kinds, as Google's emulator writes it.
                entry.message(Field.selection) { selection in
                    selection.int64(1, 2)
                    selection.int64(3, 3)
                }
                entry.string(Field.path, kind.metadataPath)
                entry.int64(Field.count, Int64(kind.entityCount))
                entry.int64(Field.bytes, Int64(kind.byteCount))
            }
        }
        try log.append(writer.bytes)
        try log.close()
    }
}
