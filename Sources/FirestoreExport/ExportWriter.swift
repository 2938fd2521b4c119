package import DocumentModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes an export in Firestore's format, one document at a time in constant memory, into a
/// hidden temporary folder beside the destination that is renamed into place only when every
/// file is written and synced: a crash leaves a `.NAME.partial-PID` folder, never something
/// that looks like a finished export.
///
/// ```swift
/// let writer = try ExportWriter(destination: "seed", layout: .firebaseTools, startMicroseconds: now)
/// try writer.append(document)
/// let summary = try writer.finish(endMicroseconds: later)
/// ```
package final class ExportWriter {
    /// How the files are laid out under the destination.
    package enum Layout: Sendable {
        /// `firebase-export-metadata.json` and `firestore_export/` (the folder `firebase
        /// emulators:export` writes and `firebase emulators:start --import` reads).
        case firebaseTools
        /// The export folder itself, `NAME.overall_export_metadata` and `all_namespaces/`
        /// (what Google's emulator's export endpoint writes under its `export_directory`).
        case exportFolder(name: String)
    }

    /// What was written.
    package struct Summary: Sendable, Equatable {
        package var documents: Int
        package var bytes: Int
    }

    /// The firebase-tools layout's Firestore folder and export name.
    package static let firebaseToolsName = "firestore_export"

    private let destination: String
    private let temporary: String
    private let layout: Layout
    private let exportFolder: String
    private let name: String
    private let startMicroseconds: Int64
    private var output: LogWriter?
    private var documents = 0

    /// Starts an export to `destination` (created or replaced when finished).
    ///
    /// - Throws: `ExportError.io` if the temporary folder cannot be made, or `destination`
    ///   exists and is neither empty nor an export (Hearth does not replace other folders).
    package init(destination: String, layout: Layout, startMicroseconds: Int64) throws {
        let destination = (destination as NSString).standardizingPath
        try Self.checkReplaceable(destination)
        self.destination = destination
        self.layout = layout
        self.startMicroseconds = startMicroseconds
        let parent = (destination as NSString).deletingLastPathComponent
        let base = (destination as NSString).lastPathComponent
        temporary = (parent as NSString).appendingPathComponent(".\(base).partial-\(getpid())")
        switch layout {
        case .firebaseTools:
            name = Self.firebaseToolsName
            exportFolder = (temporary as NSString).appendingPathComponent(Self.firebaseToolsName)
        case .exportFolder(let exportName):
            name = exportName
            exportFolder = temporary
        }
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            try FileManager.default.createDirectory(atPath: exportFolder, withIntermediateDirectories: true)
        } catch {
            throw ExportError(.io, "cannot create the folder: \(error.localizedDescription)", file: exportFolder)
        }
    }

    /// Refuses a destination that exists and is neither an empty folder nor an export.
    private static func checkReplaceable(_ destination: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else { throw ExportError(.io, "exists and is not a folder", file: destination) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []
        let isExport = entries.contains {
            $0 == ExportLocation.firebaseMetadataName || $0.hasSuffix(ExportLocation.metadataSuffix)
        }
        guard entries.isEmpty || isExport else {
            throw ExportError(.io, "exists and is not an export; not replacing it", file: destination)
        }
    }

    private var kindsFolder: String {
        (exportFolder as NSString).appendingPathComponent("all_namespaces/all_kinds")
    }

    /// Adds one document.
    package func append(_ document: Document) throws {
        if output == nil {
            try FileManager.default.createDirectory(atPath: kindsFolder, withIntermediateDirectories: true)
            output = try LogWriter(path: (kindsFolder as NSString).appendingPathComponent("output-0"))
        }
        try output?.append(try EntityEncoder.encode(document))
        documents += 1
    }

    /// Writes the metadata files, syncs everything and renames the export into place.
    package func finish(endMicroseconds: Int64) throws -> Summary {
        var kinds: [OverallMetadata.Kinds] = []
        let bytes = output?.size ?? 0
        if let output {
            try output.close()
            try KindMetadata(
                exportName: name, startMicroseconds: startMicroseconds, endMicroseconds: endMicroseconds,
                outputs: ["output-0"]
            ).write(path: (exportFolder as NSString).appendingPathComponent(OverallMetadata.allKindsMetadataPath))
            kinds.append(
                .init(metadataPath: OverallMetadata.allKindsMetadataPath, entityCount: documents, byteCount: bytes))
        }
        try OverallMetadata(kinds: kinds).write(
            path: (exportFolder as NSString).appendingPathComponent(name + ExportLocation.metadataSuffix))
        if case .firebaseTools = layout { try writeFirebaseMetadata() }
        try syncFolders()
        try moveIntoPlace()
        return Summary(documents: documents, bytes: bytes)
    }

    /// Removes the temporary folder of an export that will not be finished.
    package func abandon() {
        try? output?.close()
        try? FileManager.default.removeItem(atPath: temporary)
    }

    /// Writes `firebase-export-metadata.json` as firebase-tools does, naming the export folder.
    private func writeFirebaseMetadata() throws {
        let metadata = JSONValue.object([
            .init("version", .string("13.0.0")),
            .init(
                "firestore",
                .object([
                    .init("version", .string("1.19.0")),
                    .init("path", .string(Self.firebaseToolsName)),
                    .init(
                        "metadata_file",
                        .string("\(Self.firebaseToolsName)/\(Self.firebaseToolsName)\(ExportLocation.metadataSuffix)")),
                ])),
        ])
        let json = metadata.serialized(pretty: true) + "\n"
        let path = (temporary as NSString).appendingPathComponent(ExportLocation.firebaseMetadataName)
        guard FileManager.default.createFile(atPath: path, contents: Data(json.utf8)) else {
            throw ExportError(.io, "cannot write the firebase-tools metadata", file: path)
        }
    }

    /// Syncs every file and folder of the temporary folder, so the rename publishes durable data.
    private func syncFolders() throws {
        let enumerator = FileManager.default.enumerator(atPath: temporary)
        var paths = [temporary]
        while let relative = enumerator?.nextObject() as? String {
            paths.append((temporary as NSString).appendingPathComponent(relative))
        }
        for path in paths { try Self.sync(path) }
    }

    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ExportError(.io, "cannot open to sync", file: path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ExportError(.io, "cannot sync", file: path) }
    }

    private func moveIntoPlace() throws {
        let manager = FileManager.default
        let parent = (destination as NSString).deletingLastPathComponent
        let old = (parent as NSString).appendingPathComponent(
            ".\((destination as NSString).lastPathComponent).old-\(getpid())")
        let replacing = manager.fileExists(atPath: destination)
        do {
            if replacing { try manager.moveItem(atPath: destination, toPath: old) }
            try manager.moveItem(atPath: temporary, toPath: destination)
        } catch {
            throw ExportError(
                .io, "cannot move the finished export into place: \(error.localizedDescription)", file: destination)
        }
        try Self.sync(parent.isEmpty ? "." : parent)
        if replacing { try? manager.removeItem(atPath: old) }
    }
}
