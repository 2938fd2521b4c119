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

    /// Runs `body` as one request: `begin`, the work on the store's threads with the
    /// request's recorders bound, then `finish`.
    func run<Result: Sendable>(
        _ transport: RequestLogEntry.Transport, method: String, path: String, authorization: String?,
        _ body: (RequestContext) async throws -> Result
    ) async throws(WireStatus) -> Result {
        let scope = try begin(transport, method: method, path: path, authorization: authorization)
        do {
            // The request's work runs on the store's threads (writes on its writer, the rest on its
            // readers), so LevelDB's blocking reads, writes and fsyncs, and rules files read from
            // disk, never hold Swift's cooperative threads.
            let executor = RequestRunner.isWrite(method: method, path: path) ? writer : readers
            let result = try await withTaskExecutorPreference(executor) {
                prepareRules(for: scope)
                return try await scope.withLocals(body)
            }
            finish(scope, failure: nil)
            return result
        } catch {
            let status = WireStatus(error)
            finish(scope, failure: status)
            throw status
        }
    }

    /// Opens a request for work that does not fit in one `run` (a Listen stream's batches, run
    /// as they come): reads the caller from the `Authorization` header. End it with `finish`.
    ///
    /// - Throws: `WireStatus` for an unreadable header, reported as the request's end already.
    func begin(
        _ transport: RequestLogEntry.Transport, method: String, path: String, authorization: String?
    ) throws(WireStatus) -> RequestScope {
        let start = ContinuousClock.now
        let context: RequestContext
        do {
            context = RequestContext(authentication: try AuthorizationHeader.parse(authorization))
        } catch {
            let status = WireStatus(error)
            report(
                transport, method: method, path: path, start: start, context: nil, recorder: nil, documents: nil,
                failure: status)
            throw status
        }
        return RequestScope(
            transport: transport, method: method, path: path, start: start, context: context,
            // Rules never judge the owner: nothing to record.
            recorder: context.isAdmin ? nil : RulesDecisionRecorder(),
            documents: RequestDocuments.areNamed(method: method, path: path) ? RequestDocuments() : nil)
    }

    /// Gives the project the request's path names its rules (`ProjectRules.prepare`). Call on
    /// the store's threads: it may read a rules file.
    func prepareRules(for scope: RequestScope) {
        if let project = RequestRunner.project(inPath: scope.path) { rules.prepare(project: project) }
    }

    /// Reports a request opened by `begin` as over, failed with `failure` or not.
    func finish(_ scope: RequestScope, failure: WireStatus?) {
        report(
            scope.transport, method: scope.method, path: scope.path, start: scope.start, context: scope.context,
            recorder: scope.recorder, documents: scope.documents, failure: failure)
    }

    /// Reports a request finished now. Out of line: `run`'s frame is kept for the whole of a
    /// `Write` stream, and the log entry built inline made it 1.2 KB.
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
