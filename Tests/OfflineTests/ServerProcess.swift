import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which server a scenario runs against.
enum ServerKind: String, Sendable, CustomStringConvertible {
    /// `hearth start`, the built binary of this package, with its own data folder (kept across a kill).
    case hearth
    /// Google's `cloud_firestore_emulator` (in memory: a kill loses its data).
    case google

    var description: String { rawValue }
}

/// A server in a child process on a fixed loopback port: `start()` waits until it answers,
/// `kill()` sends SIGKILL (to the whole process tree: Google's launcher runs a JVM) and waits
/// until the port is free, `restart()` starts it again on the same port and data folder.
final class ServerProcess: @unchecked Sendable {
    let kind: ServerKind
    let host = "127.0.0.1"
    let port: Int
    /// The folder of its data (`data/`), rules file and logs.
    let folder: URL
    let rulesFile: URL
    /// The project the scenarios use (any project works on both servers).
    let projectID: String

    private let lock = NSLock()
    private var process: Process?
    private var launches = 0

    /// `FIRESTORE_EMULATOR_HOST` for clients of this server.
    var address: String { "\(host):\(port)" }

    /// Writes `rules` next to the data folder; does not start the server.
    init(kind: ServerKind, port: Int, folder: URL, rules: String, projectID: String) throws {
        self.kind = kind
        self.port = port
        self.folder = folder
        self.projectID = projectID
        rulesFile = folder.appendingPathComponent("firestore.rules")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try rules.write(to: rulesFile, atomically: true, encoding: .utf8)
    }

    deinit {
        killNow()
    }

    /// SIGKILL to the process tree, without waiting (cleanup).
    func killNow() {
        guard let process = lock.withLock({ self.process }), process.isRunning else { return }
        Self.killTree(process.processIdentifier)
        process.waitUntilExit()
    }

    var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// Starts the server and waits until it is ready (its ready line, then a TCP connect).
    func start() async throws {
        let (process, log) = try lock.withLock { () throws -> (Process, URL) in
            precondition(self.process?.isRunning != true, "\(kind) server on \(port) is already running")
            launches += 1
            let log = folder.appendingPathComponent("server-\(launches).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            switch kind {
            case .hearth:
                process.executableURL = try Binaries.hearth.get()
                process.arguments = [
                    "start", "--host", host, "--port", "\(port)", "--project", projectID,
                    "--data", folder.appendingPathComponent("data").path, "--rules", rulesFile.path,
                    "--log-level", "warning",
                ]
            case .google:
                guard let launcher = GoogleEmulator.launcher else {
                    throw HarnessError("Google's emulator is not installed: \(GoogleEmulator.absence ?? "")")
                }
                process.executableURL = URL(fileURLWithPath: launcher)
                process.arguments = ["--host", host, "--port", "\(port)", "--rules", rulesFile.path]
            }
            process.currentDirectoryURL = folder
            process.standardInput = FileHandle.nullDevice
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            self.process = process
            return (process, log)
        }
        let readyLine = kind == .hearth ? "export FIRESTORE_EMULATOR_HOST=" : "Dev App Server is now running"
        let deadline = Date().addingTimeInterval(kind == .hearth ? 60 : 120)
        while true {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if text.contains(readyLine), Self.canConnect(host: host, port: port) {
                // Google's emulator answers its first request after 5-6 s (its JVM warming up):
                // spent here, so that the scenarios' short timeouts measure the client.
                if kind == .google {
                    let rest = RESTClient(server: self)
                    _ = try await within(60, "Google's emulator's first answer") { try await rest.get("warmup/first") }
                }
                return
            }
            guard process.isRunning else {
                throw HarnessError(
                    "\(kind) server on port \(port) exited (\(process.terminationStatus)) before it was ready:\n\(text)"
                )
            }
            guard Date() < deadline else {
                Self.killTree(process.processIdentifier)
                throw HarnessError("\(kind) server on port \(port) not ready in time:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGKILL to the server's process tree; returns once it is gone and its port is free.
    func kill() async throws {
        guard let process = lock.withLock({ self.process }) else { return }
        Self.killTree(process.processIdentifier)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning || !Ports.isFree(port) {
            guard Date() < deadline else {
                throw HarnessError("\(kind) server on port \(port) still there 20 s after SIGKILL")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Starts the server again on the same port, data folder and rules file (after `kill()`).
    func restart() async throws {
        try await kill()
        try await start()
    }

    /// The log of the latest launch, for failure messages.
    var lastLog: String {
        let log = folder.appendingPathComponent("server-\(lock.withLock { launches }).log")
        return (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// SIGKILL to `pid` and every descendant (children first listed, then the parent).
    static func killTree(_ pid: Int32) {
        for child in children(of: pid) { killTree(child) }
        sendSignal(SIGKILL, to: pid)
    }

    private static func children(of pid: Int32) -> [Int32] {
        let tasks = "/proc/\(pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.flatMap { thread -> [Int32] in
            let text = (try? String(contentsOfFile: "\(tasks)/\(thread)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// Whether a TCP connection to `host:port` succeeds now.
    static func canConnect(host: String, port: Int) -> Bool {
        let socket = streamSocket()
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = Ports.address(host: host, port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}

/// Fixed loopback ports from 18100 on, each handed out once per test process and only when
/// nothing listens on it.
enum Ports {
    /// Where this process starts: two test processes at once (two checkouts, say) begin 200
    /// ports apart, and skip what the other listens on.
    private static let next = LockedValue(18_100 + Int(getpid() % 4) * 200)

    /// A free port of the range, never returned before by this process.
    static func allocate() throws -> Int {
        while true {
            let port = next.withValue { value -> Int in
                defer { value += 1 }
                return value
            }
            guard port < 18_900 else { throw HarnessError("no free port left in 18100..<18900") }
            if isFree(port) { return port }
        }
    }

    /// Whether the port can be bound on 127.0.0.1 (with SO_REUSEADDR, as servers bind).
    static func isFree(_ port: Int) -> Bool {
        let socket = streamSocket()
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = address(host: "127.0.0.1", port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    static func address(host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }
}

/// Google's Firestore emulator, where installed (the Debian package
/// google-cloud-cli-firestore-emulator, with java), found as scripts/with-google-emulator finds it.
enum GoogleEmulator {
    static let launcher: String? = {
        guard Binaries.onPath("java") != nil else { return nil }
        let candidates = [
            "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
            "/usr/share/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator",
            Binaries.onPath("cloud_firestore_emulator"),
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isInstalled: Bool { launcher != nil }

    /// Why the Google variants are skipped, or `nil` when it is installed.
    static var absence: String? {
        if Binaries.onPath("java") == nil { return "java is not on PATH" }
        if launcher == nil { return "cloud_firestore_emulator (google-cloud-cli-firestore-emulator) is not installed" }
        return nil
    }
}

/// SIGKILL and friends, outside the types whose `kill()` would shadow the C function.
private func sendSignal(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}

/// A new IPv4 TCP socket (or -1).
private func streamSocket() -> Int32 {
    #if os(Linux)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        socket(AF_INET, SOCK_STREAM, 0)
    #endif
}
