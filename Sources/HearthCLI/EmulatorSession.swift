import DocumentModel
import DocumentStore
import EmulatorServer
import Foundation

/// One run of the emulator for `hearth start` and `hearth exec`: loads the rules file, opens the
/// data folder, serves it (reloading the rules file when it changes) while `body` runs, then
/// shuts the server down gracefully (open requests finish) and closes the store, so that
/// everything acknowledged is on disk.
enum EmulatorSession {
    /// The environment variable that switches range locks off, to show that the
    /// serializability checker (`Benchmarks/serializability`) catches the phantoms that follow.
    static let noRangeLocksVariable = "HEARTH_TEST_ONLY_NO_RANGE_LOCKS"

    /// The environment variable that shortens how long old document versions are kept (an
    /// hour otherwise), so that a soak reaches a steady data size within its run
    /// (`Benchmarks/soak --bounded`); reads at a past time then reach back only that far.
    static let retentionVariable = "HEARTH_TEST_ONLY_RETENTION_SECONDS"

    /// Runs `body` with the listening server's address; request log lines (filtered by the
    /// configuration's log level) and rules notices go to `log`.
    ///
    /// - Throws: `CommandFailure` when the rules file has errors, when the data folder or the
    ///   port is in use, or for any other failure to start; `body`'s errors as they are.
    static func run<Result: Sendable>(
        _ configuration: EmulatorConfiguration, log: @escaping @Sendable (String) -> Void,
        _ body: (ServerAddress) async throws -> Result
    ) async throws -> Result {
        let level = try LogLevel(parsing: configuration.logLevel)
        let rulesWatcher = RulesFileWatcher(path: configuration.rules, log: log)
        let (rules, rulesStamp) = try rulesWatcher.initialRules()
        let store: DocumentStore
        do {
            var storeConfiguration = StoreConfiguration()
            // A log cut short after a crash is then found at the next start (Docs/Architecture.md, "Integrity").
            storeConfiguration.logWatermarkInterval = .seconds(1)
            if ProcessInfo.processInfo.environment[EmulatorSession.noRangeLocksVariable] == "1" {
                storeConfiguration.locksQueryRanges = false
                log("WARNING: \(EmulatorSession.noRangeLocksVariable)=1: queries in transactions do not lock their "
                    + "ranges, so transactions are NOT serializable (for testing the serializability checker only)")
            }
            if let text = ProcessInfo.processInfo.environment[EmulatorSession.retentionVariable] {
                guard let seconds = Int64(text), seconds >= 60 else {
                    throw CommandFailure("\(EmulatorSession.retentionVariable) must be a number of seconds of at least 60")
                }
                storeConfiguration.retentionSeconds = seconds
                log("WARNING: \(EmulatorSession.retentionVariable)=\(seconds): old document versions are kept "
                    + "\(seconds) s, not an hour (for soak benchmarks only)")
            }
            store = try DocumentStore(path: configuration.dataFolder, configuration: storeConfiguration)
        } catch let error as FirestoreError {
            throw CommandFailure(error.message)
        }
        let portability = SessionPortability(configuration: configuration, log: log)
        var serverConfiguration = EmulatorServerConfiguration(
            host: configuration.host, port: configuration.port, rules: rules,
            onRequest: { entry in if let line = level.line(for: entry) { log(line) } })
        serverConfiguration.defaultProject = configuration.projectId
        do {
            serverConfiguration.seeding = try portability.importAtStart(into: store)
        } catch {
            try? store.close()
            throw error
        }
        let result: Result
        do {
            result = try await withEmulatorServer(store: store, configuration: serverConfiguration) { server in
                let watching = Task { await rulesWatcher.watch(server.rules, from: rulesStamp) }
                defer { watching.cancel() }
                return try await body(try await server.listeningAddress)
            }
        } catch let error as FirestoreError {
            try? store.close()
            throw CommandFailure(error.message)
        } catch {
            try? store.close()
            throw error
        }
        do {
            try portability.exportOnExit(from: store)
        } catch {
            try? store.close()
            throw error
        }
        do {
            try store.close()
        } catch let error as FirestoreError {
            throw CommandFailure(error.message)
        }
        return result
    }

    /// Writes `line` and a newline to standard output at once, even when it is a pipe.
    static func printLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes `line` and a newline to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
