// `HearthBenchmarks portability`: import and export in Google's Firestore export format.
//
// - import of N user documents from an export (each record checked and loaded with its index
//   entries, `DocumentStore.bulkLoad`) against raw LevelDB writing the same documents (key
//   and encoded value, in write batches of the same size), in the same run; goal: at most 3x;
// - the peak resident memory during the import (VmHWM, reset before it); goal: under 200 MB;
// - export throughput (documents and megabytes per second) from the imported store;
// - with --google, Google's emulator loading the same export (--seed_from_export): the time
//   from launch to its first answer from the seeded project (it seeds a project on first use).

import DocumentModel
import DocumentStore
import FirestoreExport
import Foundation
import LevelDB

struct PortabilityOptions {
    var documents = 1_000_000
    var google = false
}

func parsePortabilityOptions(_ arguments: ArraySlice<String>) -> PortabilityOptions {
    var options = PortabilityOptions()
    var rest = arguments
    while let argument = rest.popFirst() {
        switch argument {
        case "--documents", "-n":
            guard let value = rest.popFirst().flatMap({ Int($0.replacingOccurrences(of: "_", with: "")) }), value > 0
            else {
                fail("--documents needs a positive integer")
            }
            options.documents = value
        case "--google": options.google = true
        default: fail("unknown argument '\(argument)'")
        }
    }
    return options
}

/// The benchmark's user documents, generated one at a time (never all in memory):
/// `users/<uid>` with the spec's fields and fixed timestamps.
struct PortabilityUsers: Sequence {
    let count: Int
    let database: DatabaseID

    func makeIterator() -> AnyIterator<Document> {
        var random = SplitMix64(state: 20_261_126)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var number = 0
        let base = Timestamp(microsecondsSinceEpoch: 1_764_000_000_000_000)
        return AnyIterator {
            guard number < count else { return nil }
            defer { number += 1 }
            // 28 random characters and the number, so ids are unique without remembering them.
            let random = String(
                decoding: (0..<20).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }, as: UTF8.self)
            let uid = random + String(format: "%08d", number)
            let time = Timestamp(microsecondsSinceEpoch: base.microsecondsSinceEpoch + Int64(number))
            let fields: MapValue = [
                "uid": .string(uid), "email": .string("user\(number)@example.com"),
                "displayName": .string("User Number \(number)"),
                "photoURL": .string("https://example.com/photos/\(uid).jpg"),
                "createdAt": .timestamp(time), "updatedAt": .timestamp(time),
            ]
            return Document(
                name: try! DocumentName(database, ResourcePath(segments: ["users", uid])), fields: fields,
                createTime: time, updateTime: time)
        }
    }
}

/// Prints `line` at once (standard output may be a file, which buffers).
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The process's peak resident memory in bytes since the last `resetPeakMemory()` (Linux).
func peakMemory() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
}

/// The process's anonymous resident memory in bytes (Linux `RssAnon`: heap and stacks, not the
/// pages of files mapped into it, such as LevelDB's table files).
func anonymousMemory() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("RssAnon:") }),
        let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
}

/// Samples `anonymousMemory()` every 50 ms on its own thread until `stop()`, keeping the peak.
final class AnonymousMemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let now = anonymousMemory()
                lock.withLock { peak = max(peak, now) }
                Thread.sleep(forTimeInterval: 0.05)
            }
            done.signal()
        }
    }

    /// Stops sampling and returns the peak.
    func stop() -> Int {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peak }
    }
}

/// Resets the peak resident memory to the current one (Linux: `5` to `/proc/self/clear_refs`).
func resetPeakMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

func runPortability(_ options: PortabilityOptions) throws {
    let scratch = try Scratch()
    defer { scratch.removeAll() }
    let database = try DatabaseID(project: "bench")
    let users = PortabilityUsers(count: options.documents, database: database)
    report("Portability benchmark: \(options.documents) user documents")

    // The export to import, written straight from the generator.
    let seed = scratch.folder("seed")
    let writer = try ExportWriter(destination: seed, layout: .firebaseTools, startMicroseconds: 0)
    for document in users { try writer.append(document) }
    let seedSummary = try writer.finish(endMicroseconds: 0)
    report("  export to import: \(formatted(Double(seedSummary.bytes) / 1e6, 1)) MB")

    // Raw LevelDB: the same documents' keys and encoded values, in batches of the import's size.
    resetPeakMemory()
    let rawFolder = scratch.folder("raw")
    let raw = try Database(path: rawFolder, options: levelDBOptions)
    let rawStart = Date()
    let batch = WriteBatch()
    for document in users {
        let version = document.updateTime.microsecondsSinceEpoch
        batch.put(StorageKeys.version(document.name, version), DocumentCodec.encode(document))
        if batch.byteCount >= DocumentStore.bulkLoadBatchBytes {
            try raw.write(batch)
            batch.clear()
        }
    }
    if batch.count > 0 { try raw.write(batch) }
    let rawSeconds = Date().timeIntervalSince(rawStart)
    let rawPeak = peakMemory()
    try raw.close()
    scratch.remove(rawFolder)

    // The import, from the export files.
    var configuration = StoreConfiguration()
    configuration.garbageCollectionIntervalSeconds = nil
    let storeFolder = scratch.folder("store")
    let store = try DocumentStore(path: storeFolder, configuration: configuration)
    resetPeakMemory()
    let baseline = peakMemory()
    let sampler = AnonymousMemorySampler()
    let importStart = Date()
    let imported = try StoreImporter(database: database, mode: .intoEmpty).run(ExportReader(path: seed), into: store)
    let importSeconds = Date().timeIntervalSince(importStart)
    let peak = peakMemory()
    let anonymousPeak = sampler.stop()
    guard imported == options.documents else { throw BenchmarkError("imported \(imported) documents") }

    // The export, from the store.
    let exported = scratch.folder("exported")
    let exportStart = Date()
    let exportSummary = try StoreExporter.export(database: database, of: store, to: exported, layout: .firebaseTools)
    let exportSeconds = Date().timeIntervalSince(exportStart)
    try store.close()

    let ratio = importSeconds / rawSeconds
    let rate = { (count: Int, seconds: Double) in formatted(Double(count) / seconds) }
    report("  raw LevelDB write:  \(formatted(rawSeconds, 2)) s (\(rate(options.documents, rawSeconds)) documents/s)")
    report(
        "  import:             \(formatted(importSeconds, 2)) s (\(rate(options.documents, importSeconds)) documents/s), "
            + "\(formatted(ratio, 2))x raw (goal 3x) \(ratio <= 3 ? "met" : "MISSED")")
    report(
        "  peak RSS in import: \(formatted(Double(peak) / 1e6, 1)) MB (\(formatted(Double(baseline) / 1e6, 1)) MB before; "
            + "goal under 200 MB) \(peak < 200_000_000 ? "met" : "MISSED")")
    report(
        "    of which anonymous (heap): at most \(formatted(Double(anonymousPeak) / 1e6, 1)) MB (sampled every 50 ms); "
            + "the rest is LevelDB's table files mapped into memory (the raw write peaked at "
            + "\(formatted(Double(rawPeak) / 1e6, 1)) MB)")
    report(
        "  export:             \(formatted(exportSeconds, 2)) s (\(rate(exportSummary.documents, exportSeconds)) documents/s, "
            + "\(formatted(Double(exportSummary.bytes) / 1e6 / exportSeconds, 1)) MB/s)")
    if options.google {
        try loadIntoGoogle(seed + "/firestore_export/firestore_export.overall_export_metadata", users: users)
    }
}

/// Starts Google's emulator seeded with the export and times its first answer from the seeded
/// project (a document read), as a comparison for Hearth's import.
func loadIntoGoogle(_ metadata: String, users: PortabilityUsers) throws {
    let launcher = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator"
    guard FileManager.default.isExecutableFile(atPath: launcher) else {
        report("  Google's emulator: not installed, skipped")
        return
    }
    let port = 18_000 + Int(getpid() % 1000)
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("google-\(port).log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    let emulator = Process()
    emulator.executableURL = URL(fileURLWithPath: launcher)
    emulator.arguments = ["--host", "127.0.0.1", "--port", "\(port)", "--seed_from_export=\(metadata)"]
    emulator.standardOutput = try FileHandle(forWritingTo: log)
    emulator.standardError = emulator.standardOutput
    let start = Date()
    try emulator.run()
    defer {
        // The launcher is a shell script running the JVM as its child: stop both.
        let launcherID = emulator.processIdentifier
        let children =
            (try? String(contentsOfFile: "/proc/\(launcherID)/task/\(launcherID)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
        emulator.terminate()
        emulator.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
    var first: Document?
    for document in users {
        first = document
        break
    }
    let path = "/v1/projects/bench/databases/(default)/documents/\(first!.name.path)"
    while true {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sf", "-o", "/dev/null", "http://127.0.0.1:\(port)\(path)"]
        try curl.run()
        curl.waitUntilExit()
        if curl.terminationStatus == 0 { break }
        guard Date().timeIntervalSince(start) < 3600, emulator.isRunning else {
            throw BenchmarkError("Google's emulator did not serve the seeded document")
        }
        Thread.sleep(forTimeInterval: 0.2)
    }
    report(
        "  Google's emulator:  \(formatted(Date().timeIntervalSince(start), 2)) s from launch to the first seeded document"
    )
}
