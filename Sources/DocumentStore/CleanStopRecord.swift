import DocumentModel
import Foundation

/// The sizes of the write-ahead logs at the last clean stop, or at the last watermark of the
/// running store (`LogWatermark`), kept beside the database in `HEARTH-CLEAN-STOP`, so that a
/// log cut short afterwards is found before LevelDB opens it.
///
/// LevelDB accepts a log that ends in the middle of a record, or at a record boundary: that is
/// what a crash during a write leaves. So a truncated log loses its last writes silently. What
/// was durable when the record was made may not be missing, though: `close` records every log's
/// size, and so does the running store, at most once a second after commits, once the logs are
/// synced; the next open compares (before LevelDB replays, and deletes, the logs) and refuses a
/// folder whose log is shorter or gone, naming it. After a crash only a cut that reaches back
/// before the last watermark (about a second before the crash) can be found: a shorter one is
/// what a crash itself leaves. The record is removed once the store is open, so the last run's
/// record is never checked against the new run's logs.
///
/// The record also holds the manifest `CURRENT` names and its size, read before the logs. Every
/// LevelDB open writes a new manifest, and LevelDB deletes a log only after recording in the
/// manifest that it is no longer needed: so a different manifest, or a longer one, means the
/// logs changed legitimately since (a memtable flush, an open by LevelDB directly or an older
/// Hearth): the record is stale and not checked.
struct CleanStopRecord {
    static let fileName = "HEARTH-CLEAN-STOP"

    /// The data folder.
    let folder: String

    private var recordPath: String { folder + "/" + CleanStopRecord.fileName }

    /// Records the size of every write-ahead log in the closed folder, durably.
    func write() throws {
        guard let manifest = manifestEntry else { return }
        try write([manifest] + logs().map { "log \($0) \(size(of: $0) ?? 0)" })
    }

    /// Records the size of every write-ahead log of the open folder, each synced to that size
    /// first: the manifest is read before the logs, so a log LevelDB deletes meanwhile makes the
    /// record stale (its manifest grew) rather than wrong.
    func writeWatermark() throws {
        guard let manifest = manifestEntry else { return }
        var entries = [manifest]
        for log in logs() {
            guard let size = size(of: log) else { continue }  // deleted meanwhile: the manifest grew
            guard sync(log) else { continue }
            entries.append("log \(log) \(size)")
        }
        try write(entries)
    }

    /// Records, for the closed folder, damage a check found in its logs, so that opens go on
    /// refusing it until it is repaired (the check's own open replayed the logs).
    func keep(_ problems: [String]) throws {
        guard !problems.isEmpty, let manifest = manifestEntry else { return }
        try write([manifest] + problems.map { "damage \($0)" })
    }

    /// The manifest line of a record: the manifest `CURRENT` names and its size.
    private var manifestEntry: String? {
        guard let manifest = currentManifest, let manifestSize = size(of: manifest) else { return nil }
        return "manifest \(manifest) \(manifestSize)"
    }

    /// The folder's write-ahead logs, by name.
    private func logs() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".log") }.sorted()
    }

    /// Flushes the folder's file `name` to disk; false if it cannot be opened (deleted meanwhile).
    private func sync(_ name: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: folder + "/" + name) else { return false }
        defer { try? handle.close() }
        return (try? handle.synchronize()) != nil
    }

    private func write(_ entries: [String]) throws {
        let files = FileManager.default
        let lines = entries.map { $0 + "\n" }.joined()
        let temporary = recordPath + ".tmp"
        let created = files.createFile(atPath: temporary, contents: Data(lines.utf8))
        guard created, let handle = FileHandle(forWritingAtPath: temporary) else {
            throw FirestoreError(.internal, "Could not write '\(temporary)'")
        }
        try handle.synchronize()
        try handle.close()
        if files.fileExists(atPath: recordPath) { try files.removeItem(atPath: recordPath) }
        try files.moveItem(atPath: temporary, toPath: recordPath)
    }

    /// What is wrong with the logs the record lists: one line per log that is shorter than at
    /// the clean stop, or gone, and the damage a check kept; empty when there is no record, it
    /// is stale, or nothing is wrong.
    func problems() -> [String] {
        guard let text = try? String(contentsOfFile: recordPath, encoding: .utf8) else { return [] }
        let lines = text.split(separator: "\n")
        let entries = lines.compactMap { line -> (kind: Substring, name: String, size: Int)? in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let size = Int(parts[2]) else { return nil }
            return (parts[0], String(parts[1]), size)
        }
        guard let manifest = entries.first(where: { $0.kind == "manifest" }),
            manifest.name == currentManifest, manifest.size == size(of: manifest.name)
        else { return [] }
        var problems = lines.filter { $0.hasPrefix("damage ") }.map { String($0.dropFirst("damage ".count)) }
        for (kind, log, recorded) in entries where kind == "log" {
            guard let size = size(of: log) else {
                problems.append("write-ahead log '\(log)' (\(recorded) bytes when last recorded) is gone")
                continue
            }
            if size < recorded {
                problems.append(
                    "write-ahead log '\(log)' holds \(size) bytes but held \(recorded) when last recorded: "
                        + "it was cut short, and the writes at its end are lost")
            }
        }
        return problems
    }

    /// Throws DATA_LOSS naming the logs that are shorter than when last recorded, or gone.
    func verify() throws {
        let problems = problems()
        guard !problems.isEmpty else { return }
        throw FirestoreError(
            .dataLoss,
            "Data folder '\(folder)' is damaged and was not opened: \(problems.joined(separator: "; ")). "
                + "\(DataFolder.advice).")
    }

    /// The manifest file `CURRENT` names, if any.
    private var currentManifest: String? {
        let text = try? String(contentsOfFile: folder + "/CURRENT", encoding: .utf8)
        let name = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return name.isEmpty ? nil : name
    }

    /// The size of the folder's file `name`, or nil if it is not there.
    private func size(of name: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.size] as? Int
    }

    /// Removes the record: the store is open, or repaired.
    func remove() {
        try? FileManager.default.removeItem(atPath: recordPath)
    }
}
