import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `hearth start` killed with SIGKILL while clients stream commits to it over REST: after a
/// restart on the same data folder, every commit the server acknowledged is there.
@Suite struct ServerCrashTests {
    /// Rounds of start, stream, SIGKILL; each round's restart checks every earlier round.
    static let rounds = 5
    /// Clients committing at the same time, so that several commits are in flight at the kill.
    static let writers = 4

    @Test func everyAcknowledgedCommitSurvivesSIGKILL() async throws {
        let sandbox = try Sandbox()
        let ledger = CommitLedger()
        for round in 0..<Self.rounds {
            let server = try RunningHearth(["start", "--port", "0", "--log-level", "error"], in: sandbox)
            let port = try #require(try await server.port(), "no ready line: \(server.stdout) \(server.stderr)")
            let client = RESTCommitClient(port: port)
            try await expectPresent(await ledger.snapshot(), client, afterRound: round)

            let killAfter = await ledger.count + Int.random(in: 40...160)
            let streams = Task {
                await withTaskGroup(of: Void.self) { group in
                    for writer in 0..<Self.writers {
                        group.addTask { await streamCommits(round: round, writer: writer, client, ledger) }
                    }
                }
            }
            while await ledger.count < killAfter, !(await ledger.stopped) {
                try await Task.sleep(for: .milliseconds(5))
            }
            let failure = await ledger.failure
            #expect(failure == nil, "a commit failed before the kill: \(failure ?? "")")
            #expect(try await server.stop(with: SIGKILL) != nil, "hearth did not die of SIGKILL")
            await streams.value
            await ledger.resume()
        }
        let server = try RunningHearth(["start", "--port", "0", "--log-level", "error"], in: sandbox)
        let port = try #require(try await server.port())
        try await expectPresent(await ledger.snapshot(), RESTCommitClient(port: port), afterRound: Self.rounds)
        #expect(try await server.stop(with: SIGTERM) == 0)
        #expect(await ledger.count >= Self.rounds * 40)
    }

    /// The server's store records its write-ahead logs' synced sizes about once a second while
    /// commits go on (`StoreConfiguration.logWatermarkInterval`): a log cut back past that
    /// record after a SIGKILL makes the next `hearth start` refuse the folder with DATA_LOSS,
    /// naming the log, and delete nothing (LevelDB alone would replay the cut log silently).
    @Test func logCutAfterSIGKILLRefusesTheNextStart() async throws {
        let sandbox = try Sandbox()
        let server = try RunningHearth(["start", "--port", "0", "--log-level", "error"], in: sandbox)
        let port = try #require(try await server.port(), "no ready line: \(server.stdout) \(server.stderr)")
        let client = RESTCommitClient(port: port)
        let folder = sandbox.dataFolder.path
        var recorded: (log: String, size: Int)?
        let deadline = Date().addingTimeInterval(60)
        var sequence = 0
        while Date() < deadline {
            try await client.commit(["cut/\(sequence)": ["sequence": sequence]])
            sequence += 1
            if let record = Self.largestRecordedLog(in: folder), record.size > 1_000 {
                recorded = record
                break
            }
        }
        #expect(try await server.stop(with: SIGKILL) != nil, "hearth did not die of SIGKILL")
        let (log, size) = try #require(recorded, "no watermark recorded in 60 s of commits")

        let handle = try #require(FileHandle(forWritingAtPath: folder + "/" + log))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let restart = try RunningHearth(["start", "--port", "0"], in: sandbox)
        // Signal 0 sends nothing: this only waits for the refusal's exit.
        let status = try await restart.stop(with: 0, timeout: 60)
        #expect(status != nil && status != 0, "the cut folder was opened: \(restart.stdout)")
        #expect(restart.stderr.contains(log) && restart.stderr.contains("cut short"), "\(restart.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before, "nothing deleted")
    }

    /// The largest log of the data folder's watermark record with its recorded size, while the
    /// record is current (its manifest unchanged since).
    private static func largestRecordedLog(in folder: String) -> (log: String, size: Int)? {
        guard let record = try? String(contentsOfFile: folder + "/HEARTH-CLEAN-STOP", encoding: .utf8),
            let current = try? String(contentsOfFile: folder + "/CURRENT", encoding: .utf8)
        else { return nil }
        var largest: (log: String, size: Int)?
        for line in record.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 3, let size = Int(parts[2]) else { continue }
            if parts[0] == "manifest", parts[1] != current.trimmingCharacters(in: .whitespacesAndNewlines) { return nil }
            if parts[0] == "log", size > largest?.size ?? 0 { largest = (parts[1], size) }
        }
        return largest
    }

    /// Commits until a commit fails (the server was killed): each commit creates one document and
    /// sets the writer's progress document, and is recorded once the server acknowledges it.
    private func streamCommits(round: Int, writer: Int, _ client: RESTCommitClient, _ ledger: CommitLedger) async {
        var sequence = 0
        while true {
            let created = "crash/r\(round)-w\(writer)-\(sequence)"
            let progress = "progress/w\(writer)"
            do {
                try await client.commit([created: ["round": round, "sequence": sequence], progress: ["sequence": sequence]])
            } catch {
                await ledger.stop(because: "\(error)")
                return
            }
            await ledger.acknowledge(created: created, progress: progress, sequence: sequence)
            sequence += 1
        }
    }

    /// Expects every acknowledged document in the database: each created document, and each
    /// progress document at its last acknowledged sequence or the one after (a commit in flight at
    /// the kill may or may not have been applied, but never partly).
    private func expectPresent(_ acknowledged: CommitLedger.Snapshot, _ client: RESTCommitClient, afterRound round: Int)
        async throws
    {
        let names = Array(acknowledged.created) + acknowledged.progress.keys
        var found: [String: [String: Int]] = [:]
        for start in stride(from: 0, to: names.count, by: 200) {
            let chunk = Array(names[start..<min(start + 200, names.count)])
            for (name, fields) in try await client.batchGet(chunk) { found[name] = fields }
        }
        let lost = acknowledged.created.filter { found[$0] == nil }
        #expect(lost.isEmpty, "after round \(round), \(lost.count) acknowledged documents lost: \(lost.sorted().prefix(5))")
        for (name, sequence) in acknowledged.progress {
            let stored = found[name]?["sequence"]
            #expect(stored == sequence || stored == sequence + 1, "after round \(round), \(name) is at \(String(describing: stored)), acknowledged \(sequence)")
        }
    }
}

/// The commits the server acknowledged, across rounds.
private actor CommitLedger {
    struct Snapshot {
        var created: Set<String> = []
        /// The last acknowledged sequence of each progress document.
        var progress: [String: Int] = [:]
    }

    private var acknowledged = Snapshot()
    /// Whether a commit failed in this round (the kill, or an error before it).
    private(set) var stopped = false
    private(set) var failure: String?

    var count: Int { acknowledged.created.count }

    func snapshot() -> Snapshot { acknowledged }

    func acknowledge(created: String, progress: String, sequence: Int) {
        acknowledged.created.insert(created)
        acknowledged.progress[progress] = sequence
    }

    func stop(because reason: String) {
        if !stopped { failure = reason }
        stopped = true
    }

    func resume() {
        stopped = false
        failure = nil
    }
}

/// Firestore's REST `:commit` and `:batchGet` on a Hearth at `127.0.0.1:port`, as the owner,
/// with documents of integer fields only.
private struct RESTCommitClient {
    let port: Int
    private let database = "projects/demo-hearth/databases/(default)"
    private let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    init(port: Int) { self.port = port }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sets every document to its fields in one commit; returns once the server acknowledged it.
    func commit(_ documents: [String: [String: Int]]) async throws {
        let writes = documents.map { path, fields in
            ["update": ["name": "\(database)/documents/\(path)", "fields": fields.mapValues { ["integerValue": String($0)] }]]
        }
        let answer = try await post("commit", ["writes": writes])
        guard let object = answer as? [String: Any], object["commitTime"] is String else {
            throw Failure(description: "commit answered \(answer)")
        }
    }

    /// The integer fields of each existing document among `paths`, keyed by path.
    func batchGet(_ paths: [String]) async throws -> [String: [String: Int]] {
        let answer = try await post("batchGet", ["documents": paths.map { "\(database)/documents/\($0)" }])
        guard let responses = answer as? [[String: Any]] else { throw Failure(description: "batchGet answered \(answer)") }
        var documents: [String: [String: Int]] = [:]
        for response in responses {
            guard let found = response["found"] as? [String: Any], let name = found["name"] as? String else { continue }
            let fields = found["fields"] as? [String: [String: String]] ?? [:]
            let path = String(name.dropFirst("\(database)/documents/".count))
            documents[path] = fields.compactMapValues { $0["integerValue"].flatMap { Int($0) } }
        }
        return documents
    }

    private func post(_ method: String, _ body: [String: Any]) async throws -> Any {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/\(database)/documents:\(method)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw Failure(description: "\(method) answered \(response): \(String(decoding: data, as: UTF8.self))")
        }
        return try JSONSerialization.jsonObject(with: data)
    }
}
