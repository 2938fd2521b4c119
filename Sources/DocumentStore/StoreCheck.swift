import DocumentModel
import Foundation
import LevelDB

/// What `DocumentStore.check(path:)` found.
public struct StoreCheckReport: Sendable {
    /// The LevelDB entries read and verified.
    public var keysRead = 0
    /// The live documents (newest versions that are not deletions) read and decoded.
    public var documentsRead = 0
    /// One line per damaged part: the key range LevelDB could not read, or the document that
    /// does not decode, and why.
    public var damage: [String] = []

    /// Whether anything is damaged.
    public var isDamaged: Bool { !damage.isEmpty }
}

extension DocumentStore {
    /// Reads every key of the closed store in `path`, verifying every block's checksum and
    /// decoding every stored document, and reports what is damaged.
    ///
    /// ```swift
    /// let report = try DocumentStore.check(path: ".hearth/data")
    /// for line in report.damage { print(line) }
    /// ```
    ///
    /// - Throws: `FirestoreError` with `.dataLoss` naming the damaged file when the store cannot
    ///   even be opened, `.notFound` when there is no data folder, `.failedPrecondition` when
    ///   another process uses it.
    public static func check(path: String) throws -> StoreCheckReport {
        guard FileManager.default.fileExists(atPath: path + "/CURRENT") else {
            guard FileManager.default.fileExists(atPath: path) else {
                throw FirestoreError(.notFound, "There is no data folder '\(path)'")
            }
            try DataFolder.prepare(path)
            throw FirestoreError(.notFound, "Data folder '\(path)' holds no store")
        }
        // Read before the open below replays (and deletes) the logs, and kept after it.
        let cleanStop = CleanStopRecord(folder: path)
        let logProblems = cleanStop.problems()
        let database: Database
        do {
            database = try Database(path: path, options: OpenOptions())
        } catch let error as LevelDBError {
            throw DataFolder.openError(error, path: path)
        }
        var report = try mapLevelDBErrors {
            defer { try? database.close() }
            var checker = StoreChecker(database)
            return try checker.run()
        }
        try? cleanStop.keep(logProblems)
        report.damage.insert(contentsOf: logProblems.map { "The \($0)" }, at: 0)
        return report
    }
}

/// Walks every key with verified checksums. A damaged block makes a LevelDB cursor skip to the
/// next readable block and keep the error, so the cursor's error is checked after every step:
/// when it appears, the keys between the last good key and the current one are reported, and
/// the walk goes on with a fresh cursor from the current key.
private struct StoreChecker {
    let database: Database
    var report = StoreCheckReport()

    init(_ database: Database) {
        self.database = database
    }

    mutating func run() throws -> StoreCheckReport {
        var cursor = try database.makeCursor(options: ReadOptions(fillCache: false))
        cursor.seekToFirst()
        var lastGood: [UInt8]?
        var lastDocumentPrefix: [UInt8]?
        while true {
            do {
                try cursor.checkError()
            } catch let error as LevelDBError {
                let after = lastGood.map { "after \(describe($0))" } ?? "from the first key"
                let upTo = cursor.isValid ? "up to \(describe(cursor.key))" : "to the last key"
                report.damage.append("Keys \(after) \(upTo) cannot be read: \(error.message)")
                guard cursor.isValid else { break }
                let resume = cursor.key
                cursor = try database.makeCursor(options: ReadOptions(fillCache: false))
                cursor.seek(to: resume)
                continue
            }
            guard cursor.isValid else { break }
            let key = cursor.key
            report.keysRead += 1
            if key.first == StorageKeys.Table.documents.rawValue {
                checkDocument(key, cursor: cursor, lastPrefix: &lastDocumentPrefix)
            }
            lastGood = key
            cursor.next()
        }
        return report
    }

    /// Decodes a documents-table entry, counting it if it is a document's newest live version.
    private mutating func checkDocument(_ key: [UInt8], cursor: Cursor, lastPrefix: inout [UInt8]?) {
        do {
            let (name, _) = try StorageKeys.decodeVersionKey(key)
            let stored = try cursor.withValue { try StoredVersion.decode($0, name: name) }
            let prefix = Array(key.dropLast(8))
            if prefix != lastPrefix, stored.document != nil { report.documentsRead += 1 }
            lastPrefix = prefix
        } catch {
            report.damage.append("\(describe(key)) does not decode: \(error)")
        }
    }

    private func describe(_ key: [UInt8]) -> String {
        StorageKeys.describe(key)
    }
}
