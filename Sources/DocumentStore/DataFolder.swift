import DocumentModel
import Foundation
import LevelDB

/// The checks around opening a data folder, so that a damaged folder is refused with a message
/// that names the folder and the damaged file, and never opened as a new, empty store.
enum DataFolder {
    /// Advice given with every report of damage.
    static let advice = "`hearth check` reports the damage; `hearth repair` keeps a copy of the folder and recovers what is readable"

    /// Creates `path` if it is absent, and refuses a folder that holds LevelDB files but no
    /// `CURRENT` file: LevelDB would open it as a new database and delete the old tables.
    static func prepare(_ path: String) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard !files.fileExists(atPath: path + "/CURRENT") else { return }
        let stored = try files.contentsOfDirectory(atPath: path).filter(isLevelDBDataFile).sorted()
        guard stored.isEmpty else {
            let shown = stored.prefix(5).joined(separator: ", ") + (stored.count > 5 ? ", …" : "")
            throw FirestoreError(
                .dataLoss,
                "Data folder '\(path)' holds LevelDB files (\(shown)) but no CURRENT file, which names the "
                    + "database's manifest: the folder is damaged, and Hearth will not open it as a new store "
                    + "(that would delete its tables). \(advice).")
        }
    }

    /// Whether a file name is one of LevelDB's tables, logs or manifests.
    static func isLevelDBDataFile(_ name: String) -> Bool {
        name.hasSuffix(".ldb") || name.hasSuffix(".sst") || name.hasSuffix(".log") || name.hasPrefix("MANIFEST-")
    }

    /// The error for a failed open of `path`: damage names the damaged file (the write-ahead log
    /// LevelDB was replaying, or else the manifest), found in the `LOG` LevelDB writes while opening.
    static func openError(_ error: LevelDBError, path: String) -> FirestoreError {
        guard error.code == .corruption else { return DocumentStore.storeError(error) }
        let file = damagedFile(in: path, message: error.message).map { " in '\($0)'" } ?? ""
        return FirestoreError(
            .dataLoss,
            "Data folder '\(path)' is damaged\(file) and was not opened (LevelDB: \(error.message)). \(advice).")
    }

    /// The file an open failed on: a table LevelDB's `message` names (a missing one), else the
    /// last write-ahead log LevelDB began to recover (`Recovering log #N` in its `LOG`), else the
    /// manifest `CURRENT` names, which LevelDB reads before any log.
    static func damagedFile(in path: String, message: String) -> String? {
        if let table = message.firstMatch(of: /([^\/\s]+\.(ldb|sst))/) {
            return String(table.1)
        }
        let log = (try? String(contentsOfFile: path + "/LOG", encoding: .utf8)) ?? ""
        if let recovering = log.matches(of: /Recovering log #(\d+)/).last, let number = Int(recovering.1) {
            return String(format: "%06d.log", number)
        }
        let current = (try? String(contentsOfFile: path + "/CURRENT", encoding: .utf8)) ?? ""
        let manifest = current.trimmingCharacters(in: .whitespacesAndNewlines)
        return manifest.isEmpty ? nil : manifest
    }
}
