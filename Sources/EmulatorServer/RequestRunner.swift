import DocumentModel
import DocumentStore
import Foundation

/// Runs one request for either protocol: reads the caller from the `Authorization` header,
/// gives the project named by the request's path its rules (`ProjectRules.prepare`), runs the
/// work on the store's threads (recording the rules decisions of a caller rules apply to),
/// reports one `RequestLogEntry` to the configuration's `onRequest` and the console's
/// `RequestLog`, and turns any failure into a `WireStatus`.
struct RequestRunner: Sendable {
    /// Receives every request's log entry (`EmulatorServerConfiguration.onRequest`).
    let log: @Sendable (RequestLogEntry) -> Void
    /// The console's log of the last requests.
    let requests: RequestLog
    /// Every project's security rules.
    let rules: ProjectRules
    /// Where reads run: the store's reader threads.
    let readers: any TaskExecutor
    /// Where writes run: the store's writer thread, so a commit does not pass through a reader.
    let writer: any TaskExecutor

    func run<Result: Sendable>(
        _ transport: RequestLogEntry.Transport, method: String, path: String, authorization: String?,
        _ body: (RequestContext) async throws -> Result
    ) async throws(WireStatus) -> Result {
        let start = ContinuousClock.now
        var context: RequestContext?
        var recorder: RulesDecisionRecorder?
        let documents = RequestDocuments.areNamed(method: method, path: path) ? RequestDocuments() : nil
        func finish(_ failure: WireStatus?) {
            report(
                transport, method: method, path: path, start: start, context: context, recorder: recorder,
                documents: documents, failure: failure)
        }
        do {
            let parsed = RequestContext(authentication: try AuthorizationHeader.parse(authorization))
            context = parsed
            // The request's work runs on the store's threads (writes on its writer, the rest on its
            // readers), so LevelDB's blocking reads, writes and fsyncs, and rules files read from
            // disk, never hold Swift's cooperative threads.
            let executor = RequestRunner.isWrite(method: method, path: path) ? writer : readers
            func work() async throws -> Result {
                try await withTaskExecutorPreference(executor) {
                    if let project = RequestRunner.project(inPath: path) { rules.prepare(project: project) }
                    guard let documents else { return try await body(parsed) }
                    return try await RequestDocuments.$current.withValue(documents) { try await body(parsed) }
                }
            }
            // Rules never judge the owner: nothing to record.
            let result: Result
            if parsed.isAdmin {
                result = try await work()
            } else {
                let requestRecorder = RulesDecisionRecorder()
                recorder = requestRecorder
                result = try await RulesDecisionRecorder.$current.withValue(requestRecorder) { try await work() }
            }
            finish(nil)
            return result
        } catch {
            let status = WireStatus(error)
            finish(status)
            throw status
        }
    }

    /// Reports a request finished now. Out of line: this function's frame is kept for the
    /// whole of a stream (a Listen stream may stay idle for hours), and the log entry built
    /// inline made it 1.2 KB.
    @inline(never)
    private func report(
        _ transport: RequestLogEntry.Transport, method: String, path: String, start: ContinuousClock.Instant,
        context: RequestContext?, recorder: RulesDecisionRecorder?, documents: RequestDocuments?,
        failure: WireStatus?
    ) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var entry = RequestLogEntry(
            transport: transport, method: method, path: path, caller: context?.callerDescription ?? "-",
            failure: failure.map { FirestoreError($0.code, $0.message) }, duration: seconds,
            rules: RequestLogEntry.RulesOutcome(isAdmin: context?.isAdmin, failure: failure?.code))
        if let noted = documents?.noted {
            entry.documents = noted.names
            entry.documentCount = noted.count
        }
        report(entry, decisions: recorder?.decisions ?? [])
    }

    /// Reports a finished request to `onRequest` and to the console's log.
    func report(_ entry: RequestLogEntry, decisions: [RecordedRulesDecision] = []) {
        log(entry)
        requests.append(entry, decisions: decisions)
    }

    /// Whether a request only writes: the gRPC write methods and the `Write` stream, and REST's
    /// commit, batch write, create (a POST to a collection), patch and delete. Transactions'
    /// commits included; everything else reads.
    static func isWrite(method: String, path: String) -> Bool {
        switch method {
        case "Commit", "CreateDocument", "UpdateDocument", "DeleteDocument", "BatchWrite", "Write", "PATCH", "DELETE":
            return true
        case "POST":
            return path.hasSuffix(":commit") || path.hasSuffix(":batchWrite") || !path.contains(":")
        default:
            return false
        }
    }

    /// The project a request's path names: `projects/{p}/...` for gRPC, `/v1/projects/{p}/...`
    /// or `/emulator/v1/projects/{p}...` for HTTP.
    static func project(inPath path: String) -> String? {
        var rest = Substring(path)
        for prefix in ["/emulator/v1/", "/v1/", "/"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        guard rest.hasPrefix("projects/") else { return nil }
        let project = rest.dropFirst("projects/".count).prefix { $0 != "/" && $0 != ":" }
        return project.isEmpty ? nil : String(project)
    }
}
