import FirestoreProto
import Foundation
import GRPCCore
import Testing

@testable import EmulatorServer

/// The memory of idle Listen streams: 10,000 of them on one connection, each with a document
/// target that is current, measured as this process's resident set (server and client both
/// live here, so the figure is an upper bound of the server's). A measurement, not a CI test:
/// it runs only with `HEARTH_MEASURE_STREAMS=1` and prints its figures.
@Suite struct ListenStreamMemoryTests {
    static let streamCount = 10_000

    @Test(.enabled(if: ProcessInfo.processInfo.environment["HEARTH_MEASURE_STREAMS"] == "1"))
    func tenThousandIdleListenStreams() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(Proto.commit([Proto.update("idle/doc", ["n": 1])]), metadata: TestServer.owner)
            let before = Self.residentBytes()
            let current = Counter()
            let release = AsyncStream<Void>.makeStream()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<Self.streamCount {
                    group.addTask {
                        try await server.listen { call in
                            call.send(Watch.documents(Int32(index + 1), ["idle/doc"]))
                            _ = try await call.responses(through: Watch.isConsistentPoint)
                            current.increment()
                            for await _ in release.stream {}
                        }
                    }
                }
                let deadline = ContinuousClock.now + .seconds(300)
                while current.value < Self.streamCount, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                }
                try await Task.sleep(for: .seconds(1))
                let after = Self.residentBytes()
                print(
                    "\(current.value) idle Listen streams: RSS \(before >> 20) MiB before, \(after >> 20) MiB after, "
                        + "\((after - before) / max(current.value, 1)) bytes per stream (client and server)")
                #expect(current.value == Self.streamCount)
                release.continuation.finish()
                try await group.waitForAll()
            }
        }
    }

    /// This process's resident set size, from `/proc/self/status`.
    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
