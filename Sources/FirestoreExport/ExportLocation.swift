import Foundation

/// Where an export's `.overall_export_metadata` file is, found from what a user gives:
/// - the file itself;
/// - the export folder that holds it (as Google's emulator and `gcloud firestore export` write);
/// - a firebase-tools export folder, whose `firebase-export-metadata.json` names it under
///   `firestore.metadata_file` (as `firebase emulators:export` and `--export-on-exit` write).
///
/// ```swift
/// let location = try ExportLocation(path: "seed")   // seed/firebase-export-metadata.json
/// location.metadataFile                             // seed/firestore_export/firestore_export.overall_export_metadata
/// ```
package struct ExportLocation: Sendable {
    /// The `.overall_export_metadata` file.
    package let metadataFile: String

    /// The file name suffix of an export's overall metadata.
    static let metadataSuffix = ".overall_export_metadata"
    /// The metadata file of a firebase-tools export.
    package static let firebaseMetadataName = "firebase-export-metadata.json"

    /// Finds the metadata file for `path`.
    ///
    /// - Throws: `ExportError.notAnExport` for a path that is none of the three,
    ///   `.missingMetadata` for a firebase-tools export without Firestore data or whose metadata
    ///   file is missing.
    package init(path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ExportError(.notAnExport, "no such file or folder", file: path)
        }
        guard isFolder.boolValue else {
            guard path.hasSuffix(Self.metadataSuffix) else {
                throw ExportError(
                    .notAnExport, "not an export: expected a folder or a *\(Self.metadataSuffix) file", file: path)
            }
            metadataFile = path
            return
        }
        let firebaseMetadata = (path as NSString).appendingPathComponent(Self.firebaseMetadataName)
        if FileManager.default.fileExists(atPath: firebaseMetadata) {
            metadataFile = try Self.firestoreMetadata(named: firebaseMetadata, in: path)
            return
        }
        let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { $0.hasSuffix(Self.metadataSuffix) }
        guard candidates.count == 1 else {
            throw ExportError(
                .notAnExport,
                candidates.isEmpty
                    ? "not an export: no \(Self.firebaseMetadataName) and no *\(Self.metadataSuffix) file"
                    : "not one export: \(candidates.count) *\(Self.metadataSuffix) files", file: path)
        }
        metadataFile = (path as NSString).appendingPathComponent(candidates[0])
    }

    /// The Firestore metadata file a firebase-tools metadata file names.
    private static func firestoreMetadata(named file: String, in folder: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: file),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw ExportError(.missingMetadata, "not a JSON object", file: file)
        }
        guard let firestore = json["firestore"] as? [String: Any], let relative = firestore["metadata_file"] as? String
        else {
            throw ExportError(
                .missingMetadata, "no firestore.metadata_file: the export has no Firestore data", file: file)
        }
        let metadata = (folder as NSString).appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: metadata) else {
            throw ExportError(.missingMetadata, "the Firestore metadata file it names is missing", file: metadata)
        }
        return metadata
    }
}
