public import DocumentModel
import Foundation
import LevelDB

/// What `DocumentStore.repair(path:backup:)` did.
public struct StoreRepairReport: Sendable {
    /// The copy of the folder as it was before the repair.
    public var backup: String
    /// The live documents the repaired store holds.
    public var documentsKept = 0
    /// Documents the index still named but whose data LevelDB could not recover (found
    /// through the index entries that survived; a document none of whose entries survived
    /// cannot be named).
    public var documentsLost: [DocumentName] = []
    /// What LevelDB's repair reported dropping or setting aside, from its `LOG`.
    public var levelDBNotes: [String] = []
}

extension DocumentStore {
    /// Repairs the closed, damaged store in `path`: copies the folder to `backup` first, replays
    /// the write-ahead logs dropping damaged records, runs LevelDB's repair (which keeps every
    /// readable entry and moves damaged files into `path/lost`), lists the documents that were lost, rebuilds the index from the
    /// documents that remain, and counts them.
    ///
    /// ```swift
    /// let report = try DocumentStore.repair(path: ".hearth/data", backup: ".hearth/data.before-repair")
    /// print("\(report.documentsKept) documents kept, \(report.documentsLost.count) lost")
    /// ```
    ///
    /// - Throws: `FirestoreError` with `.notFound` when there is no folder, `.alreadyExists`
    ///   when `backup` exists, `.failedPrecondition` when the store is open (in this process or
    ///   another); nothing is changed then.
    public static func repair(path: String, backup: String) throws -> StoreRepairReport {
        let files = FileManager.default
        guard files.fileExists(atPath: path) else { throw FirestoreError(.notFound, "There is no data folder '\(path)'") }
        guard !files.fileExists(atPath: backup) else {
            throw FirestoreError(.alreadyExists, "'\(backup)' already exists; the copy before repair would overwrite it")
        }
        try files.copyItem(atPath: path, toPath: backup)
        var report = StoreRepairReport(backup: backup)
        let cleanStop = CleanStopRecord(folder: path)
        report.levelDBNotes += cleanStop.problems().map { "The \($0) (writes there cannot be named)" }
        try mapLevelDBErrors {
            // LevelDB's repair reads write-ahead logs without checksums, so a damaged record could
            // come back as a wrong document. An open without paranoid checks replays the logs
            // first, verifying each record's checksum and dropping the damaged ones.
            // It also takes the folder's lock: LevelDB's repair does not, and must never run on
            // a folder a server has open.
            var lenient = OpenOptions()
            lenient.paranoidChecks = false
            lenient.createIfMissing = false
            do {
                try Database(path: path, options: lenient).close()
                report.levelDBNotes += levelDBNotes(in: path)
            } catch let error as LevelDBError where error.code == .databaseInUse {
                try? files.removeItem(atPath: backup)
                throw FirestoreError(.failedPrecondition, "\(error.message); stop it before repairing the folder")
            } catch {
                // Damage the lenient open cannot pass (a manifest, a missing CURRENT): the repair handles it.
            }
            try Database.repair(path: path)
            report.levelDBNotes += levelDBNotes(in: path)
            let database = try Database(path: path)
            defer { try? database.close() }
            report.documentsLost = try LostDocuments.find(in: database)
            report.documentsKept = try liveDocumentCount(database)
            if let stored = try database.get(StorageKeys.metadata(.formatVersion)) {
                var reader = OrderedKeyReader(stored)
                let format = try reader.readUInt64()
                if format >= 2 && format <= formatVersion {
                    try IndexRebuild.run(database, upgradingFrom: format, to: format)
                }
            }
            try database.close()
            cleanStop.remove()
        }
        return report
    }

    /// What LevelDB's `LOG` in `path` says it dropped or set aside, without dates.
    private static func levelDBNotes(in path: String) -> [String] {
        let log = (try? String(contentsOfFile: path + "/LOG", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard line.contains("dropping") || line.contains("Corruption") || line.contains("Archiving") else {
                return nil
            }
            // LevelDB's lines start with a date, a time and a thread id.
            return line.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init)
        }
    }

    /// The documents whose newest version is live.
    private static func liveDocumentCount(_ database: Database) throws -> Int {
        let cursor = try database.makeCursor(options: ReadOptions(fillCache: false))
        let documentsPrefix = [StorageKeys.Table.documents.rawValue]
        cursor.seek(to: documentsPrefix)
        var count = 0
        while cursor.isValid, cursor.keyHasPrefix(documentsPrefix) {
            let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
            if cursor.withValue(StoredVersion.isLive) { count += 1 }
            guard let next = KeyRange.successor(ofPrefix: StorageKeys.versionsPrefix(name)) else { break }
            cursor.seek(to: next)
        }
        try cursor.checkError()
        return count
    }
}
