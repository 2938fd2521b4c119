import Foundation

/// A kind selection's `.export_metadata` file (a plain protocol buffers message, not a log):
/// the export's name, its start and end times in microseconds, and its output files (each a
/// folder, empty for this one, and a file name, `output-0`).
struct KindMetadata: Equatable {
    var exportName: String
    var startMicroseconds: Int64
    var endMicroseconds: Int64
    var outputs: [String]

    private enum Field {
        static let export = 1
        static let name = 1
        static let start = 2
        static let end = 3
        static let output = 2
        static let outputFolder = 1
        static let outputName = 2
    }

    /// Reads the file at `path` (`name` is how errors name it).
    static func read(path: String, name: String) throws -> KindMetadata {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ExportError(.missingMetadata, "the export metadata file is missing or unreadable", file: name)
        }
        do {
            return try decode(Array(data))
        } catch let error as ExportError {
            throw ExportError(error.code, error.message, file: name, offset: error.offset)
        }
    }

    private static func decode(_ bytes: [UInt8]) throws -> KindMetadata {
        var reader = ProtoReader(bytes)
        var metadata = KindMetadata(exportName: "", startMicroseconds: 0, endMicroseconds: 0, outputs: [])
        while let tag = try reader.nextTag() {
            switch (tag.field, tag.type) {
            case (Field.export, .lengthDelimited):
                var export = try reader.nested()
                while let field = try export.nextTag() {
                    switch (field.field, field.type) {
                    case (Field.name, .lengthDelimited): metadata.exportName = try export.string()
                    case (Field.start, .varint): metadata.startMicroseconds = Int64(bitPattern: try export.varint())
                    case (Field.end, .varint): metadata.endMicroseconds = Int64(bitPattern: try export.varint())
                    default: throw export.unknown(field, in: "the export metadata")
                    }
                }
            case (Field.output, .lengthDelimited):
                var output = try reader.nested()
                var folder = ""
                var name = ""
                while let field = try output.nextTag() {
                    switch (field.field, field.type) {
                    case (Field.outputFolder, .lengthDelimited): folder = try output.string()
                    case (Field.outputName, .lengthDelimited): name = try output.string()
                    default: throw output.unknown(field, in: "the export metadata")
                    }
                }
                metadata.outputs.append(folder.isEmpty ? name : "\(folder)/\(name)")
            default:
                throw reader.unknown(tag, in: "the export metadata")
            }
        }
        return metadata
    }

    /// Writes the file at `path`.
    func write(path: String) throws {
        var writer = ProtoWriter()
        writer.message(Field.export) { export in
            export.string(Field.name, exportName)
            export.int64(Field.start, startMicroseconds)
            export.int64(Field.end, endMicroseconds)
        }
        for output in outputs {
            writer.message(Field.output) { entry in
                entry.string(Field.outputFolder, "")
                entry.string(Field.outputName, output)
            }
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(writer.bytes)) else {
            throw ExportError(.io, "cannot write the export metadata", file: path)
        }
    }
}
