import DocumentModel
import DocumentStore
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The crash test: a child process (`CrashWriter`) commits in a loop with the store's default
/// durability settings and is killed with SIGKILL at random moments, 20 times. After each
/// restart, every commit it reported as done is there, and no commit is half there.
///
/// Commit `i` of the writer creates `crash/<i>-a`, `crash/<i>-b`, `crash/<i>-c` and sets
/// `crash/counter` to `{n: i}`, atomically; it prints `committed <i>` after the commit returns.
@Suite("Crash recovery", .serialized)
struct CrashRecoveryTests {
    static let runs = 20
    static let parts = ["a", "b", "c"]
    /// How long after the writer's `ready` line it is killed, in milliseconds.
    static let killDelayMilliseconds = 50...400
    /// Bound on waiting for the writer to start, or for its output to end after the kill.
    static let childTimeoutSeconds = 30

    @Test("SIGKILL at random moments loses no acknowledged commit and leaves no half commit")
    func killedWriterKeepsEveryReportedCommit() throws {
        let writer = try Self.crashWriterExecutable()
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataFolder = folder.appendingPathComponent("data").path

        let database = try DatabaseID(project: "crash-test")
        var nextIndex: Int64 = 0
        var totalReported = 0
        var generator = SystemRandomNumberGenerator()

        for run in 1...Self.runs {
            let delay = Int.random(in: Self.killDelayMilliseconds, using: &generator)
            let output = try Self.runAndKill(
                writer, arguments: [dataFolder, String(nextIndex)], afterMilliseconds: delay,
                stderrPath: folder.appendingPathComponent("stderr-\(run).txt").path)
            let reported = try Self.reportedCommits(in: output, run: run)
            totalReported += reported.count
            if let first = reported.first {
                try #require(
                    first == nextIndex && reported == Array(first..<(first + Int64(reported.count))),
                    "run \(run): the writer reported commits \(reported.first!)...\(reported.last!) out of order, expected to start at \(nextIndex)")
            }
            let lastPresent = try Self.verifyAfterRestart(
                dataFolder, database: database, runStart: nextIndex, lastReported: reported.last, run: run,
                delay: delay)
            nextIndex = lastPresent + 1
        }

        print("CrashRecoveryTests: \(Self.runs) kills, \(totalReported) commits reported, \(nextIndex) commits in the store")
        #expect(totalReported > 0, "the writer never reported a commit in \(Self.runs) runs; the test proved nothing")
        try Self.verifyWholeCollection(dataFolder, database: database, lastIndex: nextIndex - 1)
    }

    // MARK: - Checks

    /// Opens the store the killed writer left and checks this run's commits. Returns the index
    /// of the last commit present.
    static func verifyAfterRestart(
        _ path: String, database: DatabaseID, runStart: Int64, lastReported: Int64?, run: Int, delay: Int
    ) throws -> Int64 {
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: path, configuration: configuration)
        defer { try? store.close() }
        let context = "run \(run) (killed \(delay) ms after ready)"

        let counter = try store.document(DocumentName(database, "crash/counter"))
        let lastPresent: Int64
        if let counter {
            guard case .integer(let n)? = counter.fields["n"] else {
                Issue.record("\(context): crash/counter has no integer field n: \(counter.fields)")
                throw CrashTestError("bad counter")
            }
            lastPresent = n
        } else {
            lastPresent = -1
        }
        // Nothing committed earlier (and verified after the previous restart) disappeared.
        try #require(
            lastPresent >= runStart - 1,
            "\(context): the counter went back to \(lastPresent), but commit \(runStart - 1) was already durable")
        // Every commit the writer reported as done is there.
        if let lastReported {
            try #require(
                lastPresent >= lastReported,
                "\(context): the writer reported commit \(lastReported) as done, but the counter is \(lastPresent)")
        }
        // Commits up to the counter are whole, commits after it are wholly absent: a commit
        // partly present (some of its documents, or its documents without the counter) fails.
        var problems: [String] = []
        for index in runStart...(lastPresent + 3) {
            var present: [String] = []
            var createTimes: Set<Timestamp> = []
            for part in parts {
                guard let document = try store.document(DocumentName(database, "crash/\(index)-\(part)")) else {
                    continue
                }
                present.append(part)
                createTimes.insert(document.createTime)
                if document.fields["index"] != .integer(index) || document.fields["part"] != .string(part)
                    || document.fields["padding"]?.stringValueCount != 500
                {
                    problems.append("crash/\(index)-\(part) has wrong fields \(document.fields.keys)")
                }
            }
            if index <= lastPresent {
                if present.count != parts.count {
                    problems.append("commit \(index) (<= counter \(lastPresent)) is half there: only \(present)")
                } else if createTimes.count != 1 {
                    problems.append("the documents of commit \(index) have different commit times \(createTimes)")
                }
            } else if !present.isEmpty {
                problems.append(
                    "commit \(index) is \(present.count == parts.count ? "there without its counter update" : "half there: only \(present)") (counter \(lastPresent))"
                )
            }
        }
        #expect(problems.isEmpty, "\(context): \(problems.prefix(20).joined(separator: "; "))")
        if !problems.isEmpty { throw CrashTestError("inconsistent store after \(context)") }
        return lastPresent
    }

    /// The final listing: exactly the documents of commits `0...lastIndex`, three each, and the counter.
    static func verifyWholeCollection(_ path: String, database: DatabaseID, lastIndex: Int64) throws {
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: path, configuration: configuration)
        defer { try? store.close() }
        let documents = try store.listDocuments(in: ResourcePath("crash"), of: database)
        var partsByIndex: [Int64: Set<String>] = [:]
        var strays: [String] = []
        for document in documents {
            let id = document.name.documentID
            if id == "counter" { continue }
            let pieces = id.split(separator: "-")
            guard pieces.count == 2, let index = Int64(pieces[0]), parts.contains(String(pieces[1])) else {
                strays.append(id)
                continue
            }
            partsByIndex[index, default: []].insert(String(pieces[1]))
        }
        #expect(strays.isEmpty, "unexpected documents: \(strays.prefix(20))")
        let expected = Set(parts)
        let broken = partsByIndex.filter { $0.value != expected || $0.key > lastIndex || $0.key < 0 }.keys.sorted()
        #expect(broken.isEmpty, "commits half there or beyond the counter: \(broken.prefix(20))")
        #expect(
            partsByIndex.count == Int(lastIndex + 1),
            "expected commits 0...\(lastIndex), found \(partsByIndex.count) commit(s)")
    }

    /// The indices of the complete `committed <i>` lines (a last line cut by the kill is ignored).
    static func reportedCommits(in output: String, run: Int) throws -> [Int64] {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // the text after the last newline: empty, or a line cut short
        guard lines.first == "ready" else {
            Issue.record("run \(run): the writer's first line is not 'ready': \(output.prefix(200))")
            throw CrashTestError("bad writer output")
        }
        return try lines.dropFirst().map { line in
            guard line.hasPrefix("committed "), let index = Int64(line.dropFirst("committed ".count)) else {
                Issue.record("run \(run): unexpected writer output line '\(line)'")
                throw CrashTestError("bad writer output")
            }
            return index
        }
    }

    // MARK: - The child process

    /// Starts `executable`, waits for its first line, sleeps `afterMilliseconds`, kills it with
    /// SIGKILL and returns everything it wrote to its standard output.
    static func runAndKill(
        _ executable: URL, arguments: [String], afterMilliseconds delay: Int, stderrPath: String
    ) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        defer { try? stderr.close() }
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice

        let output = ChildOutput()
        try process.run()
        let reader = stdout.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                output.append(chunk)
            }
            output.finish()
        }
        func stderrText() -> String {
            (try? String(contentsOfFile: stderrPath, encoding: .utf8)).map { "; stderr: \($0.prefix(2000))" } ?? ""
        }

        let started = output.firstLine.wait(timeout: .now() + .seconds(childTimeoutSeconds)) == .success
        if !started || !process.isRunning {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            _ = output.finished.wait(timeout: .now() + .seconds(childTimeoutSeconds))
            let what = started ? "exited early" : "printed nothing within \(childTimeoutSeconds) s"
            let message = "CrashWriter \(what) (status \(process.terminationStatus)); "
                + "stdout: \(output.text.prefix(500))\(stderrText())"
            Issue.record(Comment(rawValue: message))
            throw CrashTestError("CrashWriter did not run")
        }
        usleep(useconds_t(delay * 1000))
        let killed = kill(process.processIdentifier, SIGKILL) == 0
        process.waitUntilExit()
        guard output.finished.wait(timeout: .now() + .seconds(childTimeoutSeconds)) == .success else {
            Issue.record("CrashWriter's standard output did not end after SIGKILL")
            throw CrashTestError("stdout did not close")
        }
        guard killed, process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL else {
            let message = "CrashWriter ended by itself before the kill (reason "
                + "\(process.terminationReason.rawValue), status \(process.terminationStatus))\(stderrText())"
            Issue.record(Comment(rawValue: message))
            throw CrashTestError("CrashWriter stopped early")
        }
        return output.text
    }

    /// The built `CrashWriter`, which SwiftPM puts in the same folder as the test bundle
    /// (`<scratch-path>/<triple>/debug/`), whatever the scratch path.
    static func crashWriterExecutable() throws -> URL {
        let name = "CrashWriter"
        let environment = ProcessInfo.processInfo.environment
        if let override = environment["HEARTH_CRASH_WRITER"], !override.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: override) else {
                Issue.record("HEARTH_CRASH_WRITER is '\(override)', which is not an executable file")
                throw CrashTestError("CrashWriter not found")
            }
            return URL(fileURLWithPath: override)
        }
        var folders: [URL] = []
        func add(_ url: URL) {
            let folder = url.standardizedFileURL
            if !folders.contains(folder) { folders.append(folder) }
        }
        /// The folder holding the `.xctest` bundle that `url` is or lies inside, if any.
        func bundleFolder(_ url: URL) -> URL? {
            var current = url.standardizedFileURL
            while current.pathComponents.count > 1 {
                if current.pathExtension == "xctest" { return current.deletingLastPathComponent() }
                current = current.deletingLastPathComponent()
            }
            return nil
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let argument0 = URL(fileURLWithPath: CommandLine.arguments.first ?? "", relativeTo: cwd)
        let executablePaths = [argument0, argument0.resolvingSymlinksInPath()]
            + [Bundle.main.executableURL].compactMap { $0 }
        for bundle in Bundle.allBundles + [Bundle.main] {
            if let folder = bundleFolder(bundle.bundleURL) { add(folder) }
        }
        for path in executablePaths {
            if let folder = bundleFolder(path) { add(folder) }
        }
        for path in executablePaths { add(path.deletingLastPathComponent()) }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let looked: String = folders.map(\.path).joined(separator: ", ")
        let message: String = "The \(name) executable was not found next to the test bundle; looked in: \(looked). "
            + "Build it with the tests (`swift build --build-tests` builds every target) "
            + "or set HEARTH_CRASH_WRITER to its path."
        Issue.record(Comment(rawValue: message))
        throw CrashTestError("\(name) not found")
    }
}

struct CrashTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The child's standard output, collected by a reader thread.
private final class ChildOutput: @unchecked Sendable {
    private let data = Mutex(Data())
    private let firstLineSeen = Atomic<Bool>(false)
    /// Signalled once the first complete line has arrived (or the output ended).
    let firstLine = DispatchSemaphore(value: 0)
    /// Signalled at the end of the output.
    let finished = DispatchSemaphore(value: 0)

    func append(_ chunk: Data) {
        let hasLine = data.withLock { buffer in
            buffer.append(chunk)
            return buffer.contains(UInt8(ascii: "\n"))
        }
        if hasLine, !firstLineSeen.exchange(true, ordering: .relaxed) { firstLine.signal() }
    }

    func finish() {
        if !firstLineSeen.exchange(true, ordering: .relaxed) { firstLine.signal() }
        finished.signal()
    }

    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}

extension Value {
    /// The UTF-8 length of a string value, `nil` for other types.
    fileprivate var stringValueCount: Int? {
        if case .string(let text) = self { return text.utf8.count }
        return nil
    }
}
