import ArgumentParser
import DocumentModel
import DocumentStore
import Foundation

/// `hearth repair`: copies a damaged data folder aside, runs LevelDB's repair on it and reports
/// what was kept and what was lost.
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Repair a damaged data folder, keeping a copy of it first, and report what was kept and lost.",
        discussion: """
            The folder is first copied to <folder>.before-repair-<timestamp>. LevelDB's repair then keeps \
            every readable entry and moves damaged files into <folder>/lost; the index is rebuilt from the \
            documents that remain. The server must not be running on the folder.
            """
    )

    @OptionGroup var options: DataFolderOptions

    func run() throws {
        let folder = try options.folder()
        let backup = RepairCommand.backupPath(for: folder, at: Date())
        let report: StoreRepairReport
        do {
            report = try DocumentStore.repair(path: folder, backup: backup)
        } catch let error as FirestoreError {
            throw CommandFailure(error.message)
        }
        print("Copied '\(folder)' to '\(report.backup)' before repairing")
        for note in report.levelDBNotes { print("LevelDB: \(note)") }
        print("Repaired '\(folder)': \(report.documentsKept) documents kept")
        if report.documentsLost.isEmpty {
            print("No lost document is named by the surviving index entries")
        } else {
            print("\(report.documentsLost.count) documents lost:")
            for name in report.documentsLost { print("  \(name.resourceName)") }
        }
    }

    /// `<folder>.before-repair-<UTC yyyyMMdd-HHmmss>`.
    static func backupPath(for folder: String, at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return "\(trimmed).before-repair-\(formatter.string(from: date))"
    }
}
