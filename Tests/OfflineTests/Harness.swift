import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failure of the harness itself (a server that does not start, a child that hangs).
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A value behind a lock.
final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withValue<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
    var value: Value { mutex.withLock { $0 } }
}

/// A wait that ran out of time.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    let seconds: Double
    var description: String { "timed out after \(seconds) s: \(what)" }
}

/// `operation`'s result, or `TimedOut` after `seconds`. The operation runs in a task of its own
/// that is cancelled at the deadline but not waited for, so an operation that ignores
/// cancellation cannot hang the test.
func within<T: Sendable>(
    _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let resumed = LockedValue(false)
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let finish: @Sendable (Result<T, any Error>) -> Bool = { result in
            let first = resumed.withValue { done in
                defer { done = true }
                return !done
            }
            if first { continuation.resume(with: result) }
            return first
        }
        let worker = Task {
            do { _ = finish(.success(try await operation())) } catch { _ = finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            if finish(.failure(TimedOut(what: what, seconds: seconds))) { worker.cancel() }
        }
    }
}

/// Seconds elapsed while `body` ran, and its result.
func timed<T>(_ body: () async throws -> T) async rethrows -> (seconds: Double, value: T) {
    let start = ContinuousClock.now
    let value = try await body()
    return (seconds(since: start), value)
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    seconds(start.duration(to: .now))
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Milliseconds, for printed figures.
func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

/// What a listener delivered, each with the time it arrived.
final class Recorder<Element: Sendable>: Sendable {
    struct Entry: Sendable {
        let element: Element?
        let error: (any Error)?
        let at: ContinuousClock.Instant
    }

    private let entries = Mutex<[Entry]>([])

    /// The listener callback's body.
    func record(_ element: Element?, _ error: (any Error)?) {
        let entry = Entry(element: element, error: error, at: .now)
        entries.withLock { $0.append(entry) }
    }

    var all: [Entry] { entries.withLock { $0 } }
    var count: Int { entries.withLock { $0.count } }
    var elements: [Element] { all.compactMap(\.element) }
    var errors: [any Error] { all.compactMap(\.error) }
    var last: Element? { elements.last }

    /// Waits until an element at index `from` or later satisfies `predicate`; returns its index,
    /// the element and when it arrived. Throws `TimedOut` (listing what did arrive) after `timeout`.
    @discardableResult
    func wait(
        _ what: String, from start: Int = 0, timeout: Double = 10,
        describe: @escaping @Sendable (Element) -> String = { "\($0)" },
        where predicate: @escaping @Sendable (Element) -> Bool
    ) async throws -> (index: Int, element: Element, at: ContinuousClock.Instant) {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        while true {
            let entries = self.all
            for index in entries.indices where index >= start {
                if let element = entries[index].element, predicate(element) {
                    return (index, element, entries[index].at)
                }
            }
            if ContinuousClock.now >= deadline {
                let seen = entries.enumerated().map { index, entry in
                    "  #\(index): " + (entry.element.map(describe) ?? "error \(entry.error.map { "\($0)" } ?? "?")")
                }
                throw TimedOut(
                    what: "\(what); the listener delivered \(entries.count):\n" + seen.joined(separator: "\n"),
                    seconds: timeout)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// The package's folders and built executables.
enum Binaries {
    /// The package root (this file is Tests/OfflineTests/Harness.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The built `hearth`, next to the test bundle in the build products directory.
    static let hearth = Result { try product("hearth") }
    /// The built `OfflineWriter`.
    static let offlineWriter = Result { try product("OfflineWriter") }

    /// An executable of this package's build products directory, for any `--scratch-path`.
    static func product(_ name: String) throws -> URL {
        var directories = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        directories.append(packageRoot.appendingPathComponent(".build/debug"))
        let candidates = directories.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw HarnessError("\(name) executable not found in \(candidates.map(\.path))")
        }
        return found
    }

    /// The path of `name` on PATH, if any.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

/// What a finished child process did.
struct ChildResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `executable arguments...` to its end (SIGKILL after `timeout` seconds, then a
/// `HarnessError`), with `environment` added to this process's and the output in files.
func runChild(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60
) async throws -> ChildResult {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("offline-child-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let output = scratch.appendingPathComponent("stdout")
    let errors = scratch.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
        if Date() >= deadline {
            ServerProcess.killTree(process.processIdentifier)
            process.waitUntilExit()
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            let problems = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw HarnessError(
                "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) still running after \(timeout) s; "
                    + "stdout: \(text) stderr: \(problems)")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
    return ChildResult(
        status: process.terminationStatus,
        stdout: try String(contentsOf: output, encoding: .utf8),
        stderr: try String(contentsOf: errors, encoding: .utf8))
}

/// A test's temporary folder and servers, removed and killed when it is released.
final class Workspace: @unchecked Sendable {
    let folder: URL
    private let lock = NSLock()
    private var servers: [ServerProcess] = []

    init(_ name: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-offline-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        for server in servers { server.killNow() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A server of `kind` on a fresh fixed port with `rules`, started. A port that another
    /// program took between the check and the start is given up for the next one (three tries).
    func server(_ kind: ServerKind, rules: String = Rules.lockedCollection, name: String = "server") async throws
        -> ServerProcess
    {
        var attempt = 0
        while true {
            attempt += 1
            let server = try ServerProcess(
                kind: kind, port: try Ports.allocate(), folder: folder.appendingPathComponent("\(name)-\(attempt)"),
                rules: rules, projectID: Rules.projectID)
            lock.withLock { servers.append(server) }
            do {
                try await server.start()
                return server
            } catch let error as HarnessError
                where attempt < 3 && !server.isRunning
                && (error.description.contains("in use") || error.description.contains("already in use"))
            {
                continue
            }
        }
    }

    /// A path for a persistent cache (not created: the client makes it).
    func cachePath(_ name: String) -> String {
        folder.appendingPathComponent("cache-\(name)").path
    }
}

/// The rules files of the scenarios.
enum Rules {
    /// The project every scenario uses: the client's default (`Firestore.defaultProjectID`),
    /// which OfflineWriter uses too.
    static let projectID = "demo-hearth"

    /// Every top-level document readable; writable except in `locked` (admin bypasses rules).
    static let lockedCollection = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /{collection}/{id} {
              allow read: if true;
              allow write: if collection != 'locked';
            }
          }
        }
        """
}

/// The official Python client (google-cloud-firestore), from the venv scripts/test-interop
/// creates (.venv-interop), else a `python3` on PATH that has it.
enum PythonClient {
    /// The interpreter, or why there is none.
    static let interpreter: Result<String, HarnessError> = {
        var candidates = [Binaries.packageRoot.appendingPathComponent(".venv-interop/bin/python").path]
        if let python = Binaries.onPath("python3") { candidates.append(python) }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: candidate)
            check.arguments = ["-c", "import google.cloud.firestore"]
            check.standardOutput = FileHandle.nullDevice
            check.standardError = FileHandle.nullDevice
            guard (try? check.run()) != nil else { continue }
            check.waitUntilExit()
            if check.terminationStatus == 0 { return .success(candidate) }
        }
        return .failure(
            HarnessError(
                "no Python with google-cloud-firestore (tried \(candidates.joined(separator: ", "))); "
                    + "scripts/test-interop creates .venv-interop"))
    }()

    static var isAvailable: Bool { (try? interpreter.get()) != nil }
    static var absence: String? {
        if case .failure(let error) = interpreter { return error.description }
        return nil
    }

    /// What the Python client reads at `path`: its fields as JSON values (timestamps as RFC 3339
    /// text), or `nil` when the document does not exist.
    static func read(_ path: String, from server: ServerProcess) async throws -> [String: JSONValue]? {
        let script = """
            import datetime, json, sys
            from google.cloud import firestore
            def plain(value):
                if isinstance(value, datetime.datetime):
                    return value.isoformat()
                if isinstance(value, dict):
                    return {k: plain(v) for k, v in value.items()}
                if isinstance(value, list):
                    return [plain(v) for v in value]
                if value is None or isinstance(value, (bool, int, float, str)):
                    return value
                return str(value)
            snapshot = firestore.Client(project=sys.argv[2]).document(sys.argv[1]).get()
            print(json.dumps({"exists": snapshot.exists, "data": plain(snapshot.to_dict() or {})}))
            """
        let answer = try await python(script, [path, server.projectID], server: server)
        struct Answer: Decodable {
            var exists: Bool
            var data: [String: JSONValue]
        }
        guard let decoded = try? JSONDecoder().decode(Answer.self, from: Data(answer.utf8)) else {
            throw HarnessError("unexpected answer from the Python client: \(answer)")
        }
        return decoded.exists ? decoded.data : nil
    }

    /// Sets `path` to `fields` (a JSON object) with the Python client.
    static func write(_ path: String, _ fieldsJSON: String, to server: ServerProcess) async throws {
        let script = """
            import json, sys
            from google.cloud import firestore
            firestore.Client(project=sys.argv[3]).document(sys.argv[1]).set(json.loads(sys.argv[2]))
            print("ok")
            """
        _ = try await python(script, [path, fieldsJSON, server.projectID], server: server)
    }

    private static func python(_ script: String, _ arguments: [String], server: ServerProcess) async throws -> String {
        let python = URL(fileURLWithPath: try interpreter.get())
        let result = try await runChild(
            python, ["-c", script] + arguments,
            environment: ["FIRESTORE_EMULATOR_HOST": server.address, "GCLOUD_PROJECT": server.projectID],
            timeout: 60)
        guard result.status == 0 else {
            throw HarnessError("the Python client failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A JSON value, as the Python client's answers are decoded.
enum JSONValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int64.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .int(let int): "\(int)"
        case .double(let double): "\(double)"
        case .string(let string): "\"\(string)\""
        case .array(let array): "\(array)"
        case .object(let object): "\(object)"
        }
    }
}

/// The server's REST API as the admin (`Bearer owner`), for the harness's own checks: no
/// client cache in the way.
struct RESTClient: Sendable {
    let server: ServerProcess

    private func url(_ path: String) -> URL {
        URL(string: "http://\(server.address)/v1/projects/\(server.projectID)/databases/(default)/documents/\(path)")!
    }

    /// Sets the string fields of the document at `path`.
    func set(_ path: String, _ fields: [String: String]) async throws {
        var request = URLRequest(url: url(path))
        request.httpMethod = "PATCH"
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let body = ["fields": fields.mapValues { ["stringValue": $0] }]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw HarnessError("REST PATCH \(path): \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// The string fields of the document at `path`, or `nil` if it does not exist.
    func get(_ path: String) async throws -> [String: String]? {
        var request = URLRequest(url: url(path))
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status == 404 { return nil }
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HarnessError("REST GET \(path): \(status) \(String(decoding: data, as: UTF8.self))")
        }
        let fields = object["fields"] as? [String: [String: Any]] ?? [:]
        return fields.compactMapValues { $0["stringValue"] as? String }
    }
}
